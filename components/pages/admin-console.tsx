'use client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useTRPC } from '../trpc';
import { Pagination } from '../ui/pagination';
import { Card, ErrorState, Loading, shortAddress } from '../ui/states';
import { FailedDeliveries, SignalResolution, SkillModeration } from './admin-moderation';

export function AdminConsole() {
  return (
    <div className="flex flex-col gap-6">
      <StatsChart />
      <AgentModeration />
      <SignalResolution />
      <SkillModeration />
      <FailedDeliveries />
      <p>
        <Link href="/admin/audit" className="underline hover:text-white">
          Audit log of every admin action
        </Link>
      </p>
    </div>
  );
}

const SERIES = [
  ['agents', 'new agents', '#34d399'],
  ['endorsements', 'endorsements', '#60a5fa'],
  ['attestations', 'attestations', '#f472b6'],
  ['invocations', 'paid calls', '#fbbf24'],
] as const;

type DayCounts = Record<(typeof SERIES)[number][0], number> & { day: string };

/** One day's counts as a sentence, e.g. "2 new agents, 1 endorsement" (or "no activity"). */
function describeDay(day: DayCounts | undefined): string {
  if (!day) return 'no data';
  const parts = SERIES.filter(([key]) => day[key] > 0).map(([key, name]) => {
    const count = day[key];
    return `${count} ${count === 1 ? name.replace(/s$/, '') : name}`;
  });
  return parts.length > 0 ? parts.join(', ') : 'no activity yet';
}

function StatsChart() {
  const trpc = useTRPC();
  const [days, setDays] = useState(30);
  const history = useQuery({ ...trpc.admin.statsHistory.queryOptions({ days }), placeholderData: keepPreviousData });
  return (
    <Card title="Platform activity per day">
      <label className="mb-3 flex items-center gap-2 text-sm">
        Period
        <select
          value={days}
          onChange={(event) => setDays(Number(event.target.value))}
          className="rounded-md border border-slate-700 bg-slate-900 px-2 py-1"
        >
          <option value={7}>7 days</option>
          <option value={30}>30 days</option>
          <option value={90}>90 days</option>
        </select>
      </label>
      {history.isLoading ? <Loading label="Loading history…" /> : null}
      {history.error ? <ErrorState error={history.error} title="Could not load the history" /> : null}
      {history.data ? (
        <>
          <p className="mb-2 text-sm text-slate-300" data-testid="stats-today">
            Today (UTC): {describeDay(history.data.at(-1))}
          </p>
          <div
            className="h-64 w-full"
            data-testid="stats-chart"
            role="img"
            aria-label="Stacked bar chart of new agents, endorsements, attestations and paid calls per day"
          >
            <ResponsiveContainer width="100%" height="100%">
              {/* One stacked bar per day of its own counts: nothing is drawn between days, none is smoothed. */}
              <BarChart data={history.data} margin={{ top: 8, right: 8, bottom: 8, left: -16 }} barCategoryGap="15%">
                <CartesianGrid stroke="#1e293b" vertical={false} />
                <XAxis dataKey="day" stroke="#94a3b8" fontSize={11} />
                <YAxis allowDecimals={false} stroke="#94a3b8" fontSize={11} />
                <Tooltip cursor={{ fill: '#1e293b' }} contentStyle={{ background: '#0f172a', border: '1px solid #334155' }} />
                <Legend />
                {SERIES.map(([key, name, color]) => (
                  <Bar key={key} dataKey={key} name={name} fill={color} stackId="day" isAnimationActive={false} />
                ))}
              </BarChart>
            </ResponsiveContainer>
          </div>
        </>
      ) : null}
    </Card>
  );
}

function AgentModeration() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const agents = useQuery({
    ...trpc.admin.agents.queryOptions({ search: search || undefined, page }),
    placeholderData: keepPreviousData,
  });
  const done = () => queryClient.invalidateQueries();
  const pause = useMutation(trpc.admin.pauseAgent.mutationOptions({ onSuccess: done }));
  const unpause = useMutation(trpc.admin.unpauseAgent.mutationOptions({ onSuccess: done }));
  const pages = agents.data ? Math.max(1, Math.ceil(agents.data.total / 25)) : 1;
  return (
    <Card title="Agents">
      <label className="flex flex-col gap-1 text-sm">
        Search agents
        <input
          type="search"
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(1);
          }}
          className="rounded-md border border-slate-700 bg-slate-900 px-3 py-2 text-base"
          maxLength={100}
        />
      </label>
      {agents.isLoading ? <Loading label="Loading agents…" /> : null}
      {agents.error ? <ErrorState error={agents.error} title="Could not load agents" /> : null}
      {pause.error ? <ErrorState error={pause.error} title="Pause failed" /> : null}
      {unpause.error ? <ErrorState error={unpause.error} title="Unpause failed" /> : null}
      {agents.data ? (
        <div className="mt-3 relative overflow-x-auto" tabIndex={0}>
          <table className="w-full min-w-[560px] text-sm" data-testid="admin-agents">
            <caption className="sr-only">Agents and their status</caption>
            <thead>
              <tr className="text-left text-slate-400">
                <th scope="col" className="py-1 font-normal">
                  Agent
                </th>
                <th scope="col" className="py-1 font-normal">
                  Owner
                </th>
                <th scope="col" className="py-1 font-normal">
                  Status
                </th>
                <th scope="col" className="py-1 font-normal">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {agents.data.agents.map((agent) => (
                <tr key={agent.id} className="border-t border-slate-800" data-handle={agent.handle}>
                  <td className="py-2">
                    <Link className="underline" href={`/agents/${agent.handle}`}>
                      {agent.name}
                    </Link>
                  </td>
                  <td className="py-2 font-mono text-xs">{shortAddress(agent.owner_wallet)}</td>
                  <td className="py-2" data-testid="agent-status">
                    {agent.status}
                    {agent.admin_paused_at ? ' (by admin)' : ''}
                  </td>
                  <td className="py-2 text-right">
                    {agent.admin_paused_at ? (
                      <button
                        type="button"
                        onClick={() => unpause.mutate({ ref: agent.id })}
                        className="rounded-md border border-emerald-700 px-2 py-1 hover:bg-emerald-950"
                        aria-label={`Unpause ${agent.name}`}
                      >
                        Unpause
                      </button>
                    ) : (
                      <button
                        type="button"
                        onClick={() => {
                          if (window.confirm(`Pause ${agent.name}? It stops being callable until an admin unpauses it.`))
                            pause.mutate({ ref: agent.id });
                        }}
                        className="rounded-md border border-amber-700 px-2 py-1 hover:bg-amber-950"
                        aria-label={`Pause ${agent.name}`}
                      >
                        Pause
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pagination page={page} pages={pages} onPage={setPage} className="mt-3" />
        </div>
      ) : null}
    </Card>
  );
}

export function AuditLog() {
  const trpc = useTRPC();
  const [before, setBefore] = useState<string | undefined>(undefined);
  const log = useQuery({ ...trpc.admin.auditLog.queryOptions({ before, limit: 50 }), placeholderData: keepPreviousData });
  if (log.isLoading) return <Loading label="Loading the audit log…" />;
  if (log.error) return <ErrorState error={log.error} title="Could not load the audit log" />;
  const rows = log.data!;
  return (
    <Card>
      {rows.length === 0 ? (
        <p className="text-slate-300">No admin actions yet.</p>
      ) : (
        <div className="relative overflow-x-auto" tabIndex={0}>
          <table className="w-full min-w-[640px] text-sm" data-testid="audit-log">
            <caption className="sr-only">Admin actions, newest first</caption>
            <thead>
              <tr className="text-left text-slate-400">
                <th scope="col" className="py-1 font-normal">
                  When
                </th>
                <th scope="col" className="py-1 font-normal">
                  Who
                </th>
                <th scope="col" className="py-1 font-normal">
                  What
                </th>
                <th scope="col" className="py-1 font-normal">
                  Target
                </th>
                <th scope="col" className="py-1 font-normal">
                  Details
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} className="border-t border-slate-800">
                  <td className="py-2">{new Date(row.created_at).toLocaleString('en-US')}</td>
                  <td className="py-2 font-mono text-xs">{shortAddress(row.admin_wallet)}</td>
                  <td className="py-2 font-mono">{row.action}</td>
                  <td className="py-2">
                    {row.target_type} <span className="font-mono text-xs">{row.target_id.slice(0, 8)}</span>
                  </td>
                  <td className="py-2" data-testid="audit-details">
                    <AuditDetails action={row.action} details={row.details} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav aria-label="Pagination" className="mt-3 flex gap-3 text-sm">
        {before ? (
          <button type="button" onClick={() => setBefore(undefined)} className="rounded-md border border-slate-700 px-3 py-1">
            Newest
          </button>
        ) : null}
        {rows.length === 50 ? (
          <button
            type="button"
            onClick={() => setBefore(rows.at(-1)!.id)}
            className="rounded-md border border-slate-700 px-3 py-1"
          >
            Older
          </button>
        ) : null}
      </nav>
    </Card>
  );
}

/** Labels for the keys admin actions write into `details` (server/admin/*); others are shown humanised. */
const DETAIL_LABELS: Record<string, string> = {
  handle: 'Agent',
  previous_status: 'Status before',
  reason: 'Reason',
  outcome: 'Outcome',
  fee_claw: 'Platform fee',
  payees: 'Stakers paid',
  name: 'Skill',
  flag_reasons: 'Flagged for',
  webhook_id: 'Webhook',
  url: 'URL',
  owner_wallet: 'Owner',
  attempts: 'Attempts so far',
};

function detailValue(key: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map((item) => detailValue('', item)).join(', ');
  if (key === 'handle' && typeof value === 'string') return `@${value}`;
  if (key.endsWith('_claw') && typeof value === 'number')
    return `${value.toLocaleString('en-US', { maximumFractionDigits: 6 })} CLAW`;
  if (key.endsWith('_wallet') && typeof value === 'string' && /^0x[0-9a-fA-F]{40}$/.test(value)) return shortAddress(value);
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${humanise(k)}: ${detailValue(k, v)}`)
      .join('; ');
  }
  return String(value);
}

function humanise(key: string): string {
  const words = key.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A one-line account of the action, e.g. "Paused @market-maker (was active)". */
export function auditSentence(action: string, details: Record<string, unknown>): string {
  const text = (key: string) => (typeof details[key] === 'string' ? (details[key] as string) : null);
  const skill = text('name') ? `the skill ${text('name')}` : 'a skill';
  switch (action) {
    case 'agent.pause':
    case 'agent.unpause':
      return `${action === 'agent.pause' ? 'Paused' : 'Unpaused'} ${text('handle') ? `@${text('handle')}` : 'an agent'}${
        text('previous_status') ? ` (was ${text('previous_status')})` : ''
      }`;
    case 'signal.resolve':
      return `Resolved the signal as ${text('outcome') ?? 'decided'}`;
    case 'skill.hide':
      return `Hid ${skill}`;
    case 'skill.unhide':
      return `Showed ${skill} again`;
    case 'skill.approve':
      return `Approved ${skill}, held by the safety scan`;
    case 'skill.reject':
      return `Rejected ${skill}, held by the safety scan`;
    case 'webhook.redeliver':
      return 'Redelivered a failed webhook delivery';
    default:
      return humanise(action.replace('.', ' '));
  }
}

function AuditDetails({ action, details }: { action: string; details: Record<string, unknown> }) {
  const entries = Object.entries(details ?? {});
  return (
    <div className="flex flex-col gap-1">
      <p>{auditSentence(action, details ?? {})}</p>
      {entries.length > 0 ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
          {entries.map(([key, value]) => (
            <div key={key} className="contents">
              <dt className="text-slate-400">{DETAIL_LABELS[key] ?? humanise(key)}</dt>
              <dd className="break-all">{detailValue(key, value)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </div>
  );
}
