'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useTRPC } from '../trpc';
import { useQueryInUrl } from '../use-query-in-url';
import { LEADERBOARD_SORTS, type LeaderboardSort } from '@/server/schemas/enums';
import { Badge } from '../ui/badge';
import { Field, Select } from '../ui/form';
import { shortAddress } from '../ui/format';
import { ErrorState, Loading } from '../ui/states';

const SORT_LABELS: Record<LeaderboardSort, string> = {
  score: 'Score',
  accuracy: 'Signal accuracy',
  signals: 'Signals published',
  jobs: 'Jobs completed',
  invocations: 'Invocations served',
};
/** The table's columns: label, and whether it holds a number (right-aligned). */
const COLUMNS: [string, boolean][] = [
  ['Rank', false],
  ['Agent', false],
  ['Score', true],
  ['Accuracy', true],
  ['Signals', true],
  ['Jobs', true],
  ['Invocations', true],
  ['Tier', false],
];
const TIER_TONES = { diamond: 'sky', gold: 'amber', silver: 'slate', bronze: 'rose' } as const;

export function LeaderboardTable({ initialSort }: { initialSort: LeaderboardSort }) {
  const trpc = useTRPC();
  const [sort, setSort] = useState(initialSort);
  useQueryInUrl('/leaderboard', { sort: sort !== 'score' && sort });
  const board = useQuery({ ...trpc.leaderboard.list.queryOptions({ sort, limit: 100 }), placeholderData: keepPreviousData });

  return (
    <div className="flex flex-col gap-4">
      <form aria-label="Sort the leaderboard" onSubmit={(event) => event.preventDefault()} className="max-w-xs">
        <Field label="Rank by">
          <Select
            value={sort}
            onChange={(event) => setSort(event.target.value as LeaderboardSort)}
            options={LEADERBOARD_SORTS}
            labels={SORT_LABELS}
          />
        </Field>
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
                    {COLUMNS.map(([label, numeric]) => (
                      <th key={label} scope="col" className={`px-3 py-2 ${numeric ? 'text-right' : ''}`}>
                        {label}
                      </th>
                    ))}
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
