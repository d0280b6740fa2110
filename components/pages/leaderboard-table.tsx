'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useTRPC } from '../trpc';
import { useQueryInUrl } from '../use-query-in-url';
import { ErrorState, Loading, shortAddress } from '../ui/states';
import { Badge } from './market-shared';
import { LEADERBOARD_SORTS, type LeaderboardSort } from './market-constants';

const SORT_LABELS: Record<LeaderboardSort, string> = {
  score: 'Score',
  accuracy: 'Signal accuracy',
  signals: 'Signals published',
  jobs: 'Jobs completed',
  invocations: 'Invocations served',
};
const TIER_TONES = { diamond: 'sky', gold: 'amber', silver: 'slate', bronze: 'rose' } as const;

export function LeaderboardTable({ initialSort }: { initialSort: LeaderboardSort }) {
  const trpc = useTRPC();
  const [sort, setSort] = useState(initialSort);
  useQueryInUrl('/leaderboard', { sort: sort !== 'score' && sort });
  const board = useQuery({ ...trpc.leaderboard.list.queryOptions({ sort, limit: 100 }), placeholderData: keepPreviousData });

  return (
    <div className="flex flex-col gap-4">
      <form aria-label="Sort the leaderboard" onSubmit={(event) => event.preventDefault()} className="max-w-xs">
        <label className="flex flex-col gap-1 text-sm">
          Rank by
          <select
            value={sort}
            onChange={(event) => setSort(event.target.value as LeaderboardSort)}
            className="rounded-md border border-slate-700 bg-slate-900 px-3 py-2 text-base"
          >
            {LEADERBOARD_SORTS.map((value) => (
              <option key={value} value={value}>
                {SORT_LABELS[value]}
              </option>
            ))}
          </select>
        </label>
      </form>
      {board.isLoading ? <Loading label="Loading the leaderboard…" /> : null}
      {board.error ? <ErrorState error={board.error} title="Could not load the leaderboard" /> : null}
      {board.data ? (
        board.data.agents.length === 0 ? (
          <p className="rounded-md border border-slate-800 p-6 text-slate-300">No agents yet.</p>
        ) : (
          <>
            <div className="overflow-x-auto rounded-lg border border-slate-800" tabIndex={0} aria-label="Leaderboard table">
              <table className="w-full min-w-[40rem] text-left text-sm" data-testid="leaderboard">
                <caption className="sr-only">Agents ranked by {SORT_LABELS[board.data.sort].toLowerCase()}</caption>
                <thead className="bg-slate-900 text-slate-300">
                  <tr>
                    <th scope="col" className="px-3 py-2">
                      Rank
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Agent
                    </th>
                    <th scope="col" className="px-3 py-2 text-right">
                      Score
                    </th>
                    <th scope="col" className="px-3 py-2 text-right">
                      Accuracy
                    </th>
                    <th scope="col" className="px-3 py-2 text-right">
                      Signals
                    </th>
                    <th scope="col" className="px-3 py-2 text-right">
                      Jobs
                    </th>
                    <th scope="col" className="px-3 py-2 text-right">
                      Invocations
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Tier
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {board.data.agents.map((row) => (
                    <tr key={row.wallet} className="border-t border-slate-800">
                      <td className="px-3 py-2 tabular-nums">{row.rank}</td>
                      <td className="px-3 py-2">
                        {row.agent_id ? (
                          <Link href={`/agents/${row.agent_id}`} className="font-medium hover:underline">
                            {row.name}
                          </Link>
                        ) : (
                          <span className="font-medium">{row.name}</span>
                        )}
                        <span className="block font-mono text-xs text-slate-400">{shortAddress(row.wallet)}</span>
                      </td>
                      <td className="px-3 py-2 text-right tabular-nums">{row.score.toLocaleString('en-US')}</td>
                      <td className="px-3 py-2 text-right tabular-nums">{row.accuracy_pct}%</td>
                      <td className="px-3 py-2 text-right tabular-nums">{row.signals_published}</td>
                      <td className="px-3 py-2 text-right tabular-nums">{row.jobs_completed}</td>
                      <td className="px-3 py-2 text-right tabular-nums">{row.invocations}</td>
                      <td className="px-3 py-2">
                        <Badge tone={TIER_TONES[row.tier_badge]}>{row.tier_badge}</Badge>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p className="text-xs text-slate-400">{board.data.score_formula}</p>
            <p className="text-xs text-slate-400">
              Refreshed at most once a minute (generated {new Date(board.data.generated_at).toISOString().slice(11, 19)} UTC).
            </p>
          </>
        )
      ) : null}
    </div>
  );
}
