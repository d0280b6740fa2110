import type { Queryable } from '../core/db/sql-runner';
import { microToClaw } from '../core/money';

/** A wallet's job record for GET /api/v1/agents/me/stats. */
export async function jobStats(wallet: string, runner: Queryable) {
  const [[posted], [bids]] = await Promise.all([
    runner.query<{ posted: number; completed: number }>(
      `SELECT count(*)::int AS posted, count(*) FILTER (WHERE status = 'completed')::int AS completed FROM jobs WHERE poster_wallet = $1`,
      [wallet],
    ),
    runner.query<{ placed: number; won: number; earned: string | null }>(
      `SELECT count(*)::int AS placed, count(*) FILTER (WHERE b.status = 'accepted')::int AS won,
         sum(j.bounty - j.fee) FILTER (WHERE j.status = 'completed' AND j.accepted_bid_id = b.id)::text AS earned
       FROM job_bids b JOIN jobs j ON j.id = b.job_id WHERE b.bidder_wallet = $1`,
      [wallet],
    ),
  ]);
  return {
    posted: posted?.posted ?? 0,
    posted_completed: posted?.completed ?? 0,
    bids_placed: bids?.placed ?? 0,
    bids_won: bids?.won ?? 0,
    earned_claw: microToClaw(BigInt(bids?.earned ?? 0)),
  };
}
