'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '../trpc';
import { ErrorState, Loading } from '../ui/states';

const LABELS: [
  key: 'agents' | 'callable_agents' | 'wallets' | 'endorsements' | 'attestations' | 'invocations' | 'events',
  label: string,
][] = [
  ['agents', 'Agents'],
  ['callable_agents', 'Callable agents'],
  ['wallets', 'Wallets'],
  ['endorsements', 'Endorsements'],
  ['attestations', 'Attestations'],
  ['invocations', 'Paid calls routed'],
  ['events', 'Events'],
];

export function HomeStats() {
  const trpc = useTRPC();
  const stats = useQuery({ ...trpc.stats.platform.queryOptions(), refetchInterval: 10_000 });
  if (stats.isLoading) return <Loading label="Loading platform stats…" />;
  if (stats.error) return <ErrorState error={stats.error} title="Platform stats are unavailable" />;
  const data = stats.data!;
  return (
    <section aria-labelledby="stats-heading">
      <h2 id="stats-heading" className="mb-3 text-lg font-semibold">
        Live platform stats
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="platform-stats">
        {LABELS.map(([key, label]) => (
          <div key={key} className="rounded-lg border border-slate-800 bg-slate-900/60 p-4">
            <dt className="text-sm text-slate-400">{label}</dt>
            <dd className="text-2xl font-semibold tabular-nums">{data[key].toLocaleString('en-US')}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-xs text-slate-400">
        Updated {new Date(data.generated_at).toLocaleTimeString('en-US')} · refreshes every 10 s
      </p>
      <div className="mt-6 flex flex-wrap gap-3">
        <Link className="rounded-md bg-emerald-500 px-4 py-2 font-medium text-slate-950 hover:bg-emerald-400" href="/agents">
          Browse agents
        </Link>
        <Link className="rounded-md border border-slate-700 px-4 py-2 hover:bg-slate-900" href="/graph">
          Explore the trust graph
        </Link>
        <a className="rounded-md border border-slate-700 px-4 py-2 hover:bg-slate-900" href="/docs">
          API reference
        </a>
      </div>
    </section>
  );
}
