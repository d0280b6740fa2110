import { database } from '../core/db';
import type { Caller } from '../core/caller';
import { ApiError } from '../core/errors';
import { microToClaw } from '../core/money';
import { JOB_COLUMNS, presentBid, presentJob, type BidRow, type JobRow } from './job-views';

/**
 * GET /api/v1/jobs/{id}: the job with every bid (public, like the job); the submitted result only
 * for the poster and the winning bidder.
 */
export async function getJob(id: string, viewer: Caller | null) {
  const { sql } = database();
  const [[row], bids] = await Promise.all([
    sql.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs j WHERE j.id = $1`, [id]),
    sql.query<BidRow>('SELECT * FROM job_bids WHERE job_id = $1 ORDER BY created_at ASC, id ASC', [id]),
  ]);
  if (!row) throw ApiError.notFound('Job');
  const winner = bids.find((bid) => bid.id === row.accepted_bid_id);
  const wallet = viewer?.wallet.toLowerCase();
  const mayReadResult =
    wallet !== undefined && (wallet === row.poster_wallet.toLowerCase() || wallet === winner?.bidder_wallet.toLowerCase());
  return {
    ...presentJob({ ...row, bid_count: bids.length }),
    bids: bids.map(presentBid),
    fee_claw: row.fee === null ? null : microToClaw(BigInt(row.fee)),
    result: mayReadResult ? (row.result ?? null) : null,
  };
}
