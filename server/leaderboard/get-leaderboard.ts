import { getAddress } from 'viem';
import { database } from '../core/db';
import { MICRO_PER_CLAW } from '../core/money';
import { currentRuntime } from '../core/runtime';
import { sharedCache } from '../core/shared-state';
import { accuracyPct, SCORE_FORMULA, SCORE_SQL, tierBadge } from './score';

export type LeaderboardSort = 'score' | 'accuracy' | 'signals' | 'jobs' | 'invocations';

// Spec: cached 60 s (a change shows within a minute on every instance).
const cache = sharedCache<Awaited<ReturnType<typeof computeLeaderboard>>>('leaderboard', { ttlMs: 60_000, dropOn: [] });

const ORDER: Record<LeaderboardSort, string> = {
  score: 'score DESC',
  accuracy: 'accuracy DESC, decided DESC, score DESC',
  signals: 'signals_published DESC, score DESC',
  jobs: 'jobs_completed DESC, score DESC',
  invocations: 'invocations DESC, score DESC',
};

interface Row {
  wallet: string;
  name: string;
  score: string | number;
  signals_published: number;
  signals_correct: number;
  signals_incorrect: number;
  jobs_completed: number;
  invocations: number;
}

/**
 * One row per wallet that has an agent (named after its oldest agent, as the wallet acts in the
 * graph), over the wallet's signals, jobs won and completed (with a bounty of at least
 * LEADERBOARD_MIN_JOB_BOUNTY_CLAW, so a pair of wallets cannot trade 1 micro-CLAW jobs for 100 points
 * each), and invocations its agents served.
 */
async function computeLeaderboard(sort: LeaderboardSort, limit: number) {
  const rows = await database().sql.query<Row>(
    `WITH w AS (
       SELECT DISTINCT ON (owner_wallet) owner_wallet AS wallet, name FROM agents ORDER BY owner_wallet, created_at, id),
     sig AS (
       SELECT publisher_wallet AS wallet, count(*)::int AS published,
         count(*) FILTER (WHERE outcome = 'correct')::int AS correct, count(*) FILTER (WHERE outcome = 'incorrect')::int AS incorrect
       FROM signals GROUP BY publisher_wallet),
     jb AS (
       SELECT b.bidder_wallet AS wallet, count(*)::int AS completed
       FROM jobs j JOIN job_bids b ON b.id = j.accepted_bid_id WHERE j.status = 'completed' AND j.bounty >= $1::bigint
       GROUP BY b.bidder_wallet),
     inv AS (SELECT target_wallet AS wallet, count(*)::int AS served FROM invocations WHERE status = 'success' GROUP BY target_wallet),
     stats AS (
       SELECT w.wallet, w.name, coalesce(sig.published, 0) AS signals_published, coalesce(sig.correct, 0) AS signals_correct,
         coalesce(sig.incorrect, 0) AS signals_incorrect, coalesce(jb.completed, 0) AS jobs_completed, coalesce(inv.served, 0) AS invocations
       FROM w LEFT JOIN sig ON sig.wallet = w.wallet LEFT JOIN jb ON jb.wallet = w.wallet LEFT JOIN inv ON inv.wallet = w.wallet)
     SELECT *, ${SCORE_SQL}::bigint AS score,
       CASE WHEN signals_correct + signals_incorrect = 0 THEN 0 ELSE signals_correct::float8 / (signals_correct + signals_incorrect) END AS accuracy,
       signals_correct + signals_incorrect AS decided
     FROM stats ORDER BY ${ORDER[sort]}, wallet LIMIT ${Math.floor(limit)}`,
    [(BigInt(currentRuntime().config.LEADERBOARD_MIN_JOB_BOUNTY_CLAW) * MICRO_PER_CLAW).toString()],
  );
  return {
    agents: rows.map((row, i) => {
      const score = Number(row.score);
      return {
        rank: i + 1,
        name: row.name,
        wallet: getAddress(row.wallet),
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
    generated_at: new Date().toISOString(),
  };
}

/** GET /api/v1/agents/leaderboard (cached 60 s per sort and limit). */
export function getLeaderboard(sort: LeaderboardSort = 'score', limit = 20) {
  return cache().get(`${sort}:${limit}`, () => computeLeaderboard(sort, limit));
}
