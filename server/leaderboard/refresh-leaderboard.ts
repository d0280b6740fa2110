import { lockUntilCommit, withTransaction } from '../core/db';
import type { Queryable } from '../core/db/sql-runner';
import { MICRO_PER_CLAW } from '../core/money';
import { currentRuntime } from '../core/runtime';
import { SCORE_SQL } from './score';

// The leaderboard's figures live in leaderboard_wallets, recomputed in the background (the
// refresh-leaderboard job) and read by an index scan of `limit` rows: no request aggregates every
// agent, signal, job and invocation (0.35 s at 100,000 agents without invocations, 1.1-1.4 s with them). Spec: cached 60 s, so readers serve
// the table while its refresh is under MAX_AGE_MS old; the job refreshes it once it is REFRESH_AFTER_MS
// old, early enough that readers find it fresh (docs/spec-decisions.md, Leaderboard).

/**
 * Readers serve the table while its last refresh is younger than this: the spec's 60 s less the 1 s the
 * REST door's response cache may keep an answer (SHORT_CACHE on the endpoint), so no reader of any door
 * sees figures older than 60 s.
 */
export const MAX_AGE_MS = 59_000;
/** The job refreshes the table once it is this old (checked every 10 s: 30-40 s old at most on one instance, 50 s across several). */
export const REFRESH_AFTER_MS = 30_000;

const COUNTS = ['signals_published', 'signals_correct', 'signals_incorrect', 'jobs_completed', 'invocations'];
const COLUMNS = ['wallet', 'name', ...COUNTS, 'score', 'accuracy', 'decided'];

/**
 * One statement: recomputes every wallet's figures (one row per wallet that has an agent, named after
 * its oldest agent, over its signals, the jobs it won and completed with a bounty of at least
 * LEADERBOARD_MIN_JOB_BOUNTY_CLAW, so a pair of wallets cannot trade 1 micro-CLAW jobs for 100 points
 * each, and the successful invocations its agents served), writes the rows that changed, deletes
 * wallets that no longer have an agent and stamps leaderboard_refresh. Returns the rows written.
 */
export async function refreshLeaderboardTable(runner: Queryable): Promise<number> {
  const minBounty = BigInt(currentRuntime().config.LEADERBOARD_MIN_JOB_BOUNTY_CLAW) * MICRO_PER_CLAW;
  const [row] = await runner.query<{ written: number }>(
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
       FROM w LEFT JOIN sig ON sig.wallet = w.wallet LEFT JOIN jb ON jb.wallet = w.wallet LEFT JOIN inv ON inv.wallet = w.wallet),
     fresh AS (
       SELECT *, ${SCORE_SQL}::bigint AS score,
         CASE WHEN signals_correct + signals_incorrect = 0 THEN 0 ELSE signals_correct::float8 / (signals_correct + signals_incorrect) END AS accuracy,
         signals_correct + signals_incorrect AS decided
       FROM stats),
     written AS (
       INSERT INTO leaderboard_wallets (${COLUMNS.join(', ')})
       SELECT ${COLUMNS.map((c) => `f.${c}`).join(', ')} FROM fresh f LEFT JOIN leaderboard_wallets l ON l.wallet = f.wallet
       WHERE l.wallet IS NULL OR (l.name, ${COUNTS.map((c) => `l.${c}`).join(', ')}, l.score)
         IS DISTINCT FROM (f.name, ${COUNTS.map((c) => `f.${c}`).join(', ')}, f.score)
       ON CONFLICT (wallet) DO UPDATE SET ${COLUMNS.slice(1)
         .map((c) => `${c} = excluded.${c}`)
         .join(', ')}
       RETURNING 1),
     gone AS (
       DELETE FROM leaderboard_wallets l WHERE NOT EXISTS (SELECT 1 FROM agents a WHERE a.owner_wallet = l.wallet)),
     stamp AS (
       INSERT INTO leaderboard_refresh (id, refreshed_at) VALUES (true, statement_timestamp())
       ON CONFLICT (id) DO UPDATE SET refreshed_at = excluded.refreshed_at)
     SELECT count(*)::int AS written FROM written`,
    [minBounty.toString()],
  );
  return row?.written ?? 0;
}

/**
 * Refreshes the table unless a refresh younger than `unlessYoungerMs` exists. Refreshes run one at a
 * time across instances (an advisory lock; a waiter then finds the one before it young and skips), so
 * concurrent readers and the job never compute the aggregate twice at once. Returns whether it ran.
 */
export function refreshLeaderboard(unlessYoungerMs: number): Promise<boolean> {
  return withTransaction(
    async (tx) => {
      await lockUntilCommit(tx, 'leaderboard-refresh');
      const young = await tx.sql.query(
        `SELECT 1 FROM leaderboard_refresh WHERE refreshed_at > statement_timestamp() - make_interval(secs => $1)`,
        [unlessYoungerMs / 1000],
      );
      if (young.length > 0) return false;
      await refreshLeaderboardTable(tx.sql);
      return true;
    },
    { timeoutMs: 60_000 },
  );
}
