import type { ReadPart } from '../core/db/read-together';
import { microToClaw } from '../core/money';

interface JobStatsJson {
  posted: number;
  completed: number;
  placed: number;
  won: number;
  earned: string | null;
}

/** A wallet's job record for GET /api/v1/agents/me/stats, as a part of a combined read. */
export function jobStatsPart(wallet: string) {
  const part: ReadPart<ReturnType<typeof jobStatsView>> = {
    sql: (p) => `SELECT json_build_object('posted', po.posted, 'completed', po.completed, 'placed', bi.placed, 'won', bi.won,
         'earned', bi.earned)
       FROM (SELECT count(*) AS posted, count(*) FILTER (WHERE status = 'completed') AS completed
             FROM jobs WHERE poster_wallet = ${p.add(wallet)}) po,
         (SELECT count(*) AS placed, count(*) FILTER (WHERE b.status = 'accepted') AS won,
            sum(j.bounty - j.fee) FILTER (WHERE j.status = 'completed' AND j.accepted_bid_id = b.id)::text AS earned
          FROM job_bids b JOIN jobs j ON j.id = b.job_id WHERE b.bidder_wallet = ${p.add(wallet)}) bi`,
    read: (value) => jobStatsView(value as JobStatsJson),
  };
  return part;
}

function jobStatsView(row: JobStatsJson) {
  return {
    posted: row.posted,
    posted_completed: row.completed,
    bids_placed: row.placed,
    bids_won: row.won,
    earned_claw: microToClaw(BigInt(row.earned ?? 0)),
  };
}
