'use client';
import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { useTRPC } from '../trpc';
import { shortAddress } from '../ui/format';

const SUGGESTIONS = 6;

/**
 * The home page's look-up: an agent by name, handle or owner wallet (agents.list), with suggestions
 * as the visitor types (an ARIA combobox: arrows move, Enter opens the highlighted agent or the
 * directory filtered by the text, Escape closes).
 */
export function AgentLookup() {
  const trpc = useTRPC();
  const router = useRouter();
  const listId = useId();
  const [text, setText] = useState('');
  const [term, setTerm] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);

  useEffect(() => {
    const id = setTimeout(() => setTerm(text.trim()), 200);
    return () => clearTimeout(id);
  }, [text]);

  const suggestions = useQuery({
    ...trpc.agents.list.queryOptions({ search: term, pageSize: SUGGESTIONS }),
    enabled: term.length >= 2,
  });
  const agents = term.length >= 2 ? (suggestions.data?.agents ?? []) : [];
  const showList = open && term.length >= 2 && !suggestions.isLoading;

  const go = (index: number) => {
    // The highlighted agent, or the only match; else the directory filtered by the text.
    const agent = agents[index] ?? (agents.length === 1 ? agents[0] : undefined);
    if (agent) router.push(`/agents/${agent.handle}`);
    else if (text.trim()) router.push(`/agents?search=${encodeURIComponent(text.trim())}`);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive((i) => Math.min(agents.length - 1, i + 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => Math.max(-1, i - 1));
    } else if (event.key === 'Escape') {
      setOpen(false);
      setActive(-1);
    }
  };

  return (
    <section aria-labelledby="lookup-heading" className="rounded-lg border border-slate-800 bg-slate-900/60 p-4">
      <h2 id="lookup-heading" className="mb-2 text-lg font-semibold">
        Look an agent up
      </h2>
      <form
        role="search"
        className="relative flex flex-col gap-2 sm:flex-row"
        onSubmit={(event) => {
          event.preventDefault();
          go(active);
        }}
      >
        <label htmlFor={`${listId}-input`} className="sr-only">
          Agent name, handle or wallet
        </label>
        <input
          id={`${listId}-input`}
          type="search"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={showList}
          aria-controls={`${listId}-list`}
          aria-activedescendant={showList && active >= 0 ? `${listId}-option-${active}` : undefined}
          autoComplete="off"
          value={text}
          maxLength={100}
          placeholder="Name, @handle or 0x wallet"
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setTimeout(() => setOpen(false), 150)}
          onKeyDown={onKeyDown}
          className="min-w-0 flex-1 rounded-md border border-slate-700 bg-slate-900 px-3 py-2 text-base"
        />
        <button type="submit" className="rounded-md bg-emerald-500 px-4 py-2 font-medium text-slate-950 hover:bg-emerald-400">
          Look up
        </button>
        {showList ? (
          <ul
            id={`${listId}-list`}
            role="listbox"
            aria-label="Matching agents"
            data-testid="lookup-suggestions"
            className="absolute left-0 right-0 top-full z-10 mt-1 overflow-hidden rounded-md border border-slate-700 bg-slate-900 shadow-lg"
          >
            {agents.length === 0 ? (
              <li role="option" aria-selected={false} aria-disabled="true" className="px-3 py-2 text-sm text-slate-400">
                No agent matches “{term}”
              </li>
            ) : (
              agents.map((agent, index) => (
                <li
                  key={agent.agent_id}
                  id={`${listId}-option-${index}`}
                  role="option"
                  aria-selected={index === active}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => go(index)}
                  onMouseEnter={() => setActive(index)}
                  className={`flex cursor-pointer items-center justify-between gap-3 px-3 py-2 text-sm ${
                    index === active ? 'bg-slate-800' : ''
                  }`}
                >
                  <span className="min-w-0">
                    <span className="font-medium">{agent.agent_name}</span>{' '}
                    <span className="text-slate-400">@{agent.handle}</span>
                    <span className="block truncate font-mono text-xs text-slate-400">{shortAddress(agent.owner_wallet)}</span>
                  </span>
                  <span className="shrink-0 tabular-nums text-slate-300">trust {agent.trust_score}</span>
                </li>
              ))
            )}
          </ul>
        ) : null}
      </form>
    </section>
  );
}
