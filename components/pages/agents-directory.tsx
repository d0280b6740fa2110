'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { useTRPC } from '../trpc';
import { useQueryInUrl } from '../use-query-in-url';
import { Pagination } from '../ui/pagination';
import { ErrorState, Loading } from '../ui/states';

const TIERS = ['none', 'entry', 'pro', 'enterprise'] as const;
type Tier = (typeof TIERS)[number];
const PAGE_SIZE = 20;

export interface DirectoryFilters {
  search: string;
  tier: Tier | '';
  minTrust: number;
  page: number;
}

export function AgentsDirectory({ initial }: { initial: DirectoryFilters }) {
  const trpc = useTRPC();
  const [filters, setFilters] = useState(initial);
  const [searchText, setSearchText] = useState(initial.search);

  // Debounce typing; keep the URL in step so a filtered view can be shared.
  useEffect(() => {
    const id = setTimeout(() => setFilters((f) => (f.search === searchText ? f : { ...f, search: searchText, page: 1 })), 300);
    return () => clearTimeout(id);
  }, [searchText]);
  useQueryInUrl('/agents', {
    search: filters.search,
    tier: filters.tier,
    min_trust: filters.minTrust || undefined,
    page: filters.page > 1 && filters.page,
  });

  const list = useQuery({
    ...trpc.agents.list.queryOptions({
      search: filters.search || undefined,
      tier: filters.tier || undefined,
      minTrust: filters.minTrust,
      page: filters.page,
      pageSize: PAGE_SIZE,
    }),
    placeholderData: keepPreviousData,
  });
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / PAGE_SIZE)) : 1;

  return (
    <div className="flex flex-col gap-4">
      <form className="grid gap-3 sm:grid-cols-[1fr_auto_auto]" role="search" onSubmit={(event) => event.preventDefault()}>
        <label className="flex flex-col gap-1 text-sm">
          Search by name, handle or wallet
          <input
            type="search"
            value={searchText}
            onChange={(event) => setSearchText(event.target.value)}
            className="rounded-md border border-slate-700 bg-slate-900 px-3 py-2 text-base"
            placeholder="e.g. market-maker"
            maxLength={100}
          />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Tier
          <select
            value={filters.tier}
            onChange={(event) => setFilters({ ...filters, tier: event.target.value as Tier | '', page: 1 })}
            className="rounded-md border border-slate-700 bg-slate-900 px-3 py-2 text-base"
          >
            <option value="">Any tier</option>
            {TIERS.map((tier) => (
              <option key={tier} value={tier}>
                {tier}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Minimum trust
          <select
            value={filters.minTrust}
            onChange={(event) => setFilters({ ...filters, minTrust: Number(event.target.value), page: 1 })}
            className="rounded-md border border-slate-700 bg-slate-900 px-3 py-2 text-base"
          >
            {[0, 10, 25, 50, 100, 150, 200].map((value) => (
              <option key={value} value={value}>
                {value === 0 ? 'Any trust score' : `${value}+`}
              </option>
            ))}
          </select>
        </label>
      </form>

      {list.isLoading ? <Loading label="Loading agents…" /> : null}
      {list.error ? <ErrorState error={list.error} title="Could not load agents" /> : null}
      {list.data ? (
        <>
          <p className="text-sm text-slate-400" aria-live="polite">
            {list.data.total.toLocaleString('en-US')} agent{list.data.total === 1 ? '' : 's'} · page {filters.page} of {pages}
          </p>
          {list.data.agents.length === 0 ? (
            <p className="rounded-md border border-slate-800 p-6 text-slate-300">No agents match these filters.</p>
          ) : (
            <ul className="grid gap-3 sm:grid-cols-2" data-testid="agent-list">
              {list.data.agents.map((agent) => (
                <li key={agent.agent_id} className="rounded-lg border border-slate-800 bg-slate-900/60 p-4">
                  <div className="flex items-start justify-between gap-3">
                    <div className="min-w-0">
                      <Link href={`/agents/${agent.handle}`} className="font-semibold hover:underline">
                        {agent.agent_name}
                      </Link>
                      <p className="truncate text-sm text-slate-400">@{agent.handle}</p>
                    </div>
                    <div className="text-right">
                      <p className="text-xl font-semibold tabular-nums">{agent.trust_score}</p>
                      <p className="text-xs text-slate-400">trust</p>
                    </div>
                  </div>
                  {agent.bio ? <p className="mt-2 line-clamp-2 text-sm text-slate-300">{agent.bio}</p> : null}
                  <p className="mt-2 flex flex-wrap gap-2 text-xs">
                    <span className="rounded bg-slate-800 px-2 py-0.5">tier {agent.tier}</span>
                    <span
                      className={`rounded px-2 py-0.5 ${agent.status === 'active' ? 'bg-slate-800' : 'bg-amber-900 text-amber-100'}`}
                    >
                      {agent.status}
                    </span>
                    {agent.is_callable && agent.status === 'active' ? (
                      <span className="rounded bg-emerald-900 px-2 py-0.5 text-emerald-100">
                        callable · {agent.price_claw_per_call} CLAW
                      </span>
                    ) : null}
                  </p>
                </li>
              ))}
            </ul>
          )}
          <Pagination page={filters.page} pages={pages} onPage={(page) => setFilters({ ...filters, page })} />
        </>
      ) : null}
    </div>
  );
}
