import type { Queryable } from '../core/db/sql-runner';
import { microToClaw } from '../core/money';
import { accuracyPct } from '../leaderboard/score';

/** A wallet's signal record for GET /api/v1/agents/me/stats. */
export async function signalStats(wallet: string, runner: Queryable) {
  const [[published], [staked]] = await Promise.all([
    runner.query<{ published: number; resolved: number; correct: number; incorrect: number; stake: string | null }>(
      `SELECT count(*)::int AS published, count(*) FILTER (WHERE status = 'resolved')::int AS resolved,
         count(*) FILTER (WHERE outcome = 'correct')::int AS correct, count(*) FILTER (WHERE outcome = 'incorrect')::int AS incorrect,
         sum(stake)::text AS stake
       FROM signals WHERE publisher_wallet = $1`,
      [wallet],
    ),
    runner.query<{ amount: string | null }>('SELECT sum(amount)::text AS amount FROM signal_stakes WHERE staker_wallet = $1', [
      wallet,
    ]),
  ]);
  return {
    published: published?.published ?? 0,
    resolved: published?.resolved ?? 0,
    correct: published?.correct ?? 0,
    accuracy_pct: accuracyPct(published?.correct ?? 0, published?.incorrect ?? 0),
    total_staked_claw: microToClaw(BigInt(published?.stake ?? 0) + BigInt(staked?.amount ?? 0)),
  };
}
