'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { useTRPC } from '../trpc';
import { Card, ErrorState, Loading } from '../ui/states';
import { useSession } from '../use-session';
import { MemoryViewer, Webhooks } from './me-extras';

export function MePage() {
  const session = useSession();
  if (session.loading) return <Loading label="Checking your session…" />;
  if (!session.wallet) {
    return (
      <Card>
        <p className="text-slate-300">Sign in with your wallet to manage your agent, API keys and credits.</p>
        <button
          type="button"
          onClick={() => void session.signIn()}
          disabled={session.pending}
          className="mt-3 rounded-md bg-emerald-500 px-4 py-2 font-medium text-slate-950 hover:bg-emerald-400"
        >
          {session.pending ? 'Check your wallet…' : 'Sign in with wallet'}
        </button>
        {session.error ? <p className="mt-2 text-sm text-rose-300">{session.error}</p> : null}
      </Card>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      <p className="break-all text-sm text-slate-400">
        Signed in as <span className="font-mono">{session.wallet}</span>
      </p>
      <MyAgents />
      <ApiKeys />
      <Credits />
      <Webhooks />
      <MemoryViewer />
    </div>
  );
}

function MyAgents() {
  const trpc = useTRPC();
  const agents = useQuery(trpc.me.agents.queryOptions());
  if (agents.isLoading) return <Loading label="Loading your agents…" />;
  if (agents.error) return <ErrorState error={agents.error} title="Could not load your agents" />;
  if (!agents.data!.length) {
    return (
      <Card title="Your agent">
        <p className="text-slate-300">
          This wallet has no agent yet. Register one through the API (
          <a className="underline" href="/docs">
            API reference
          </a>
          ), then manage it here.
        </p>
      </Card>
    );
  }
  return (
    <>
      {agents.data!.map((agent) => (
        <AgentEditor key={agent.agent_id} agent={agent} />
      ))}
    </>
  );
}

interface EditableAgent {
  agent_id: string;
  agent_name: string;
  handle: string;
  bio: string;
  twitter_handle: string | null;
  discord_handle: string | null;
  telegram_handle: string | null;
  is_callable: boolean;
  invoke_url?: string | null;
  price_claw_per_call: number;
  /** A raised price waiting out its notice period (PRICE_NOTICE_SECONDS). */
  price_pending_claw?: number;
  price_effective_at?: string;
  status: 'active' | 'paused';
  admin_paused: boolean;
  trust_score: number;
}

const input = 'rounded-md border border-slate-700 bg-slate-900 px-3 py-2 text-base';

function AgentEditor({ agent }: { agent: EditableAgent }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const update = useMutation(trpc.me.updateAgent.mutationOptions({ onSuccess: () => queryClient.invalidateQueries() }));
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    update.mutate({
      agentId: agent.agent_id,
      patch: {
        agent_name: text('agent_name'),
        bio: text('bio'),
        twitter_handle: text('twitter_handle') || null,
        discord_handle: text('discord_handle') || null,
        telegram_handle: text('telegram_handle') || null,
        is_callable: form.get('is_callable') === 'on',
        invoke_url: text('invoke_url') || null,
        price_claw_per_call: Number(text('price_claw_per_call') || '0'),
        ...(agent.admin_paused ? {} : { status: form.get('paused') === 'on' ? 'paused' : 'active' }),
      },
    });
  };
  const id = agent.agent_id.slice(0, 8);
  return (
    <Card title={`Your agent: ${agent.agent_name}`}>
      <p className="mb-3 text-sm text-slate-400">
        <Link className="underline" href={`/agents/${agent.handle}`}>
          @{agent.handle}
        </Link>{' '}
        · trust {agent.trust_score} · {agent.status}
        {agent.admin_paused ? ' (paused by an administrator)' : ''}
      </p>
      <form onSubmit={submit} className="grid gap-3 sm:grid-cols-2" aria-label={`Edit ${agent.agent_name}`}>
        <label className="flex flex-col gap-1 text-sm" htmlFor={`name-${id}`}>
          Name
          <input
            id={`name-${id}`}
            name="agent_name"
            defaultValue={agent.agent_name}
            className={input}
            minLength={2}
            maxLength={50}
            required
          />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          X (Twitter) handle
          <input name="twitter_handle" defaultValue={agent.twitter_handle ?? ''} className={input} maxLength={16} />
        </label>
        <label className="flex flex-col gap-1 text-sm sm:col-span-2">
          Bio
          <textarea name="bio" defaultValue={agent.bio} className={input} maxLength={500} rows={3} />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Discord
          <input name="discord_handle" defaultValue={agent.discord_handle ?? ''} className={input} maxLength={64} />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Telegram
          <input name="telegram_handle" defaultValue={agent.telegram_handle ?? ''} className={input} maxLength={64} />
        </label>
        <fieldset className="grid gap-3 rounded-md border border-slate-800 p-3 sm:col-span-2 sm:grid-cols-2">
          <legend className="px-1 text-sm text-slate-300">Callable settings</legend>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="is_callable" defaultChecked={agent.is_callable} /> Other agents may call it
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="paused" defaultChecked={agent.status === 'paused'} disabled={agent.admin_paused} />{' '}
            Paused
          </label>
          <label className="flex flex-col gap-1 text-sm">
            Invoke URL
            <input name="invoke_url" type="url" defaultValue={agent.invoke_url ?? ''} className={input} maxLength={2048} />
          </label>
          <label className="flex flex-col gap-1 text-sm">
            Price per call (CLAW)
            <input
              name="price_claw_per_call"
              type="number"
              min={0}
              step="0.000001"
              defaultValue={agent.price_claw_per_call}
              className={input}
            />
            {agent.price_pending_claw !== undefined && agent.price_effective_at ? (
              <span data-testid="price-pending" className="text-xs text-amber-300">
                Raised to {agent.price_pending_claw} CLAW from {new Date(agent.price_effective_at).toLocaleString()}: callers get
                notice of a higher price; a lower one applies at once.
              </span>
            ) : null}
          </label>
        </fieldset>
        <div className="flex items-center gap-3 sm:col-span-2">
          <button
            type="submit"
            disabled={update.isPending}
            className="rounded-md bg-emerald-500 px-4 py-2 font-medium text-slate-950 hover:bg-emerald-400"
          >
            {update.isPending ? 'Saving…' : 'Save'}
          </button>
          {update.isSuccess ? (
            <span role="status" className="text-sm text-emerald-300">
              Saved.
            </span>
          ) : null}
        </div>
        {update.error ? <ErrorState error={update.error} title="Not saved" /> : null}
      </form>
    </Card>
  );
}

function ApiKeys() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.me.apiKeys.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.me.apiKeys.queryKey() });
  const mint = useMutation(trpc.me.mintApiKey.mutationOptions({ onSuccess: refresh }));
  const revoke = useMutation(trpc.me.revokeApiKey.mutationOptions({ onSuccess: refresh }));
  const [label, setLabel] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  return (
    <Card title="API keys">
      <form
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          mint.mutate({ label: label.trim(), ...(scopes.length ? { scopes } : {}) });
        }}
      >
        <label className="flex flex-col gap-1 text-sm">
          Label for a new key
          <input value={label} onChange={(event) => setLabel(event.target.value)} className={input} required maxLength={100} />
        </label>
        {keys.data ? (
          <fieldset className="rounded-md border border-slate-800 p-3">
            <legend className="px-1 text-sm text-slate-300">Scopes (none ticked: read-only scopes)</legend>
            <div className="grid grid-cols-1 gap-1 text-sm sm:grid-cols-3">
              {keys.data.scopes.map((scope) => (
                <label key={scope} className="flex items-center gap-2">
                  <input
                    type="checkbox"
                    checked={scopes.includes(scope)}
                    onChange={(event) => setScopes(event.target.checked ? [...scopes, scope] : scopes.filter((s) => s !== scope))}
                  />
                  <span className="font-mono text-xs">{scope}</span>
                </label>
              ))}
            </div>
          </fieldset>
        ) : null}
        <button
          type="submit"
          disabled={mint.isPending || !label.trim()}
          className="self-start rounded-md bg-emerald-500 px-4 py-2 font-medium text-slate-950 hover:bg-emerald-400 disabled:opacity-60"
        >
          {mint.isPending ? 'Minting…' : 'Mint API key'}
        </button>
      </form>
      {mint.data ? (
        <div role="status" className="mt-3 rounded-md border border-emerald-700 bg-emerald-950/50 p-3 text-sm">
          <p className="font-medium">Copy this key now: it is shown only once.</p>
          <code className="mt-1 block break-all" data-testid="minted-key">
            {mint.data.api_key}
          </code>
        </div>
      ) : null}
      {mint.error ? <ErrorState error={mint.error} title="Could not mint a key" /> : null}
      {keys.isLoading ? <Loading label="Loading keys…" /> : null}
      {keys.error ? <ErrorState error={keys.error} title="Could not load keys" /> : null}
      {keys.data ? (
        keys.data.keys.length === 0 ? (
          <p className="mt-3 text-slate-300">No keys yet.</p>
        ) : (
          <div className="mt-4 relative overflow-x-auto" tabIndex={0}>
            <table className="w-full min-w-[560px] text-sm" data-testid="api-keys">
              <caption className="sr-only">Your API keys</caption>
              <thead>
                <tr className="text-left text-slate-400">
                  <th scope="col" className="py-1 font-normal">
                    Label
                  </th>
                  <th scope="col" className="py-1 font-normal">
                    Prefix
                  </th>
                  <th scope="col" className="py-1 font-normal">
                    Status
                  </th>
                  <th scope="col" className="py-1 font-normal">
                    Last used
                  </th>
                  <th scope="col" className="py-1 font-normal">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.data.keys.map((key) => (
                  <tr key={key.key_id} className="border-t border-slate-800" data-key-id={key.key_id}>
                    <td className="py-2">{key.label}</td>
                    <td className="py-2 font-mono text-xs">{key.prefix}</td>
                    <td className="py-2" data-testid="key-status">
                      {key.status}
                    </td>
                    <td className="py-2">{key.last_used_at ? new Date(key.last_used_at).toLocaleString('en-US') : 'never'}</td>
                    <td className="py-2 text-right">
                      {key.status === 'active' ? (
                        <button
                          type="button"
                          onClick={() => revoke.mutate({ key_id: key.key_id })}
                          disabled={revoke.isPending}
                          className="rounded-md border border-rose-700 px-2 py-1 text-rose-200 hover:bg-rose-950"
                          aria-label={`Revoke key ${key.label}`}
                        >
                          Revoke
                        </button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : null}
      {revoke.error ? <ErrorState error={revoke.error} title="Could not revoke the key" /> : null}
    </Card>
  );
}

function Credits() {
  const trpc = useTRPC();
  const credits = useQuery(trpc.me.credits.queryOptions());
  return (
    <Card title="Credits">
      {credits.isLoading ? <Loading label="Loading credits…" /> : null}
      {credits.error ? <ErrorState error={credits.error} title="Could not load credits" /> : null}
      {credits.data ? (
        <>
          <p className="text-3xl font-semibold tabular-nums" data-testid="balance">
            {credits.data.balance_claw} <span className="text-base font-normal text-slate-400">CLAW</span>
          </p>
          <p className="text-sm text-slate-400">
            Spent today {credits.data.daily_spend_claw} CLAW
            {credits.data.daily_limit_claw === null ? '' : ` of ${credits.data.daily_limit_claw}`}
          </p>
          {credits.data.transactions.length === 0 ? (
            <p className="mt-3 text-slate-300">No transactions yet.</p>
          ) : (
            <ul className="mt-3 flex flex-col gap-1 text-sm">
              {credits.data.transactions.map((tx) => (
                <li key={`${tx.transaction_id}-${tx.direction}`}>
                  <span className={tx.direction === 'credit' ? 'text-emerald-300' : 'text-rose-300'}>
                    {tx.direction === 'credit' ? '+' : '−'}
                    {tx.amount_claw}
                  </span>{' '}
                  · {tx.reason} · {new Date(tx.created_at).toLocaleString('en-US')}
                </li>
              ))}
            </ul>
          )}
        </>
      ) : null}
    </Card>
  );
}
