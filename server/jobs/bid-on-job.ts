import { randomUUID } from 'node:crypto';
import { withTransaction } from '../core/db';
import type { Caller } from '../core/caller';
import { ApiError } from '../core/errors';
import { microToClaw } from '../core/money';
import { emit } from '../events/emit';
import { presentBid, type BidRow } from './job-views';
import { assertBiddable, lockJob } from './load-job';

export interface BidInput {
  bid: bigint;
  etaSeconds: number;
  proposal: string;
}

/**
 * POST /api/v1/jobs/{id}/bid: one bid per wallet and job, never on your own job (403), only while
 * the job is open or bid and not expired (409), at most the bounty (422). The first bid moves the
 * job from open to bid. No money moves: the bounty is already in escrow.
 */
export async function bidOnJob(caller: Caller, jobId: string, input: BidInput) {
  return withTransaction(async (tx) => {
    const job = await lockJob(jobId, tx.sql);
    if (job.poster_wallet.toLowerCase() === caller.wallet.toLowerCase()) {
      throw new ApiError('forbidden', 'You cannot bid on your own job');
    }
    assertBiddable(job, 'bid');
    if (input.bid > BigInt(job.bounty)) {
      throw new ApiError('unprocessable', 'bid_claw cannot exceed the job’s bounty_claw', {
        bounty_claw: microToClaw(BigInt(job.bounty)),
      });
    }
    const [row] = await tx.sql.query<BidRow>(
      `INSERT INTO job_bids (id, job_id, bidder_wallet, bidder_agent_id, bid, eta_seconds, proposal)
       VALUES ($1, $2, $3, $4::uuid, $5::bigint, $6, $7)
       ON CONFLICT (job_id, bidder_wallet) DO NOTHING RETURNING *`,
      [randomUUID(), jobId, caller.wallet, caller.agentId, input.bid.toString(), input.etaSeconds, input.proposal],
    );
    if (!row) throw new ApiError('conflict', 'You already bid on this job', { job_id: jobId });
    await tx.sql.query(
      `UPDATE jobs SET bid_count = bid_count + 1, status = CASE WHEN status = 'open' THEN 'bid' ELSE status END WHERE id = $1`,
      [jobId],
    );
    const view = presentBid(row);
    await emit(
      'job.bid',
      {
        job_id: jobId,
        bid_id: view.bid_id,
        bidder_wallet: view.bidder_wallet,
        bid_claw: view.bid_claw,
        eta_seconds: view.eta_seconds,
      },
      tx.sql,
    );
    return view;
  });
}
