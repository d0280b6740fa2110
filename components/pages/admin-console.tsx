'use client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
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
        <div
          className="h-64 w-full"
          data-testid="stats-chart"
          role="img"
          aria-label="Line chart of new agents, endorsements, attestations and paid calls per day"
        >
          <ResponsiveContainer width="100%" height="100%">
            <LineChart data={history.data} margin={{ top: 8, right: 8, bottom: 8, left: -16 }}>
              <CartesianGrid stroke="#1e293b" />
              <XAxis dataKey="day" stroke="#94a3b8" fontSize={11} />
              <YAxis allowDecimals={false} stroke="#94a3b8" fontSize={11} />
              <Tooltip contentStyle={{ background: '#0f172a', border: '1px solid #334155' }} />
              <Legend />
              <Line type="monotone" dataKey="agents" name="new agents" stroke="#34d399" dot={false} />
              <Line type="monotone" dataKey="endorsements" stroke="#60a5fa" dot={false} />
              <Line type="monotone" dataKey="attestations" stroke="#f472b6" dot={false} />
              <Line type="monotone" dataKey="invocations" name="paid calls" stroke="#fbbf24" dot={false} />
            </LineChart>
          </ResponsiveContainer>
        </div>
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
                  <td className="py-2 font-mono text-xs">{JSON.stringify(row.details)}</td>
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
