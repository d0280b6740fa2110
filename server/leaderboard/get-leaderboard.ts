import { getAddress } from 'viem';
import { database, primaryDatabase } from '../core/db';
import { sharedState } from '../core/shared-state';
import { MAX_AGE_MS, REFRESH_AFTER_MS, refreshLeaderboard } from './refresh-leaderboard';
import { accuracyPct, SCORE_FORMULA, tierBadge } from './score';

export type LeaderboardSort = 'score' | 'accuracy' | 'signals' | 'jobs' | 'invocations';

// Each order has its index on leaderboard_wallets (prisma/schema.prisma), ties broken by wallet.
const ORDER: Record<LeaderboardSort, string> = {
  score: 'score DESC',
  accuracy: 'accuracy DESC, decided DESC, score DESC',
  signals: 'signals_published DESC, score DESC',
  jobs: 'jobs_completed DESC, score DESC',
  invocations: 'invocations DESC, score DESC',
};

interface Row {
  refreshed_at: Date;
  fresh: boolean;
  // null on the one row of a fresh but empty table
  wallet: string | null;
  name: string;
  score: string | number;
  signals_published: number;
  signals_correct: number;
  signals_incorrect: number;
  jobs_completed: number;
  invocations: number;
}

// The refresh this instance's readers are waiting for, if any: concurrent readers of a stale table share it.
const pendingRefresh = sharedState('leaderboard.refresh', () => ({ running: null as Promise<boolean> | null }));

/**
 * The first `limit` rows of the table in the sort's order, each with the table's refresh time and whether
 * it is under MAX_AGE_MS old (no rows: never refreshed; one row without a wallet: no wallet has an agent).
 */
function readTable(sort: LeaderboardSort, limit: number, runner = database().sql) {
  return runner.query<Row>(
    `SELECT r.refreshed_at, r.refreshed_at > statement_timestamp() - make_interval(secs => $1) AS fresh, l.*
     FROM leaderboard_refresh r
     LEFT JOIN LATERAL (SELECT * FROM leaderboard_wallets ORDER BY ${ORDER[sort]}, wallet LIMIT ${Math.floor(limit)}) l ON true`,
    [MAX_AGE_MS / 1000],
  );
}

/**
 * GET /api/v1/agents/leaderboard: at most 60 s old (spec: cached 60 s), the response cache included. Read from leaderboard_wallets,
 * which the refresh-leaderboard job keeps younger than that; only when it did not (a new database, a
 * job that failed) does a read wait for one refresh, shared with the instance's other readers.
 */
export async function getLeaderboard(sort: LeaderboardSort = 'score', limit = 20) {
  let rows = await readTable(sort, limit);
  if (!rows[0]?.fresh) {
    const state = pendingRefresh();
    state.running ??= refreshLeaderboard(REFRESH_AFTER_MS).finally(() => {
      state.running = null;
    });
    await state.running;
    // on the primary: a read replica may not have the refresh yet
    rows = await readTable(sort, limit, primaryDatabase().sql);
  }
  return {
    agents: rows
      .filter((row) => row.wallet !== null)
      .map((row, i) => {
        const score = Number(row.score);
        return {
          rank: i + 1,
          name: row.name,
          wallet: getAddress(row.wallet!),
          score,
          accuracy_pct: accuracyPct(row.signals_correct, row.signals_incorrect),
          signals_published: row.signals_published,
          jobs_completed: row.jobs_completed,
          invocations: row.invocations,
          tier_badge: tierBadge(score),
        };
      }),
    sort,
    score_formula: SCORE_FORMULA,
    generated_at: new Date(rows[0]!.refreshed_at).toISOString(),
  };
}
