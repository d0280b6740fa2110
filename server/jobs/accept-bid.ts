import { getAddress } from 'viem';
import { withTransaction } from '../core/db';
import type { Caller } from '../core/caller';
import { ApiError } from '../core/errors';
import { assertPayeeAllowed } from '../credits/spend-policy';
import { currentRuntime } from '../core/runtime';
import type { BidRow } from './job-views';
import { assertBiddable, lockJob } from './load-job';

/**
 * POST /api/v1/jobs/{id}/accept: the poster (403 for anyone else) picks one of the job's bids
 * (404 for a bid of another job); the job moves from open or bid to executing (409 from any other
 * state or once expired). The bounty stays in escrow. The job's delivery deadline is set: now + the
 * bid's eta_seconds + JOB_DELIVERY_GRACE_HOURS (after it the poster may cancel, cancel-job.ts). The job row is locked, so of any number of
 * concurrent acceptances exactly one wins and the others see executing (409).
 */
export async function acceptBid(caller: Caller, jobId: string, bidId: string) {
  return withTransaction(async (tx) => {
    const job = await lockJob(jobId, tx.sql);
    if (job.poster_wallet.toLowerCase() !== caller.wallet.toLowerCase()) {
      throw new ApiError('forbidden', 'Only the job’s poster can accept a bid');
    }
    assertBiddable(job, 'accept a bid');
    const [bid] = await tx.sql.query<BidRow>('SELECT * FROM job_bids WHERE id = $1 AND job_id = $2', [bidId, jobId]);
    if (!bid) throw ApiError.notFound('Bid');
    // The bounty goes to this bidder: the poster's credential must be allowed to pay it (spend policy).
    await assertPayeeAllowed(caller, { agentId: bid.bidder_agent_id, wallet: bid.bidder_wallet }, tx.sql);
    const graceSeconds = currentRuntime().config.JOB_DELIVERY_GRACE_HOURS * 3600;
    await tx.sql.query(
      `UPDATE jobs SET status = 'executing', accepted_bid_id = $2, accepted_at = now(),
         delivery_deadline = now() + make_interval(secs => $3::int + $4::int) WHERE id = $1`,
      [jobId, bidId, Number(bid.eta_seconds), graceSeconds],
    );
    await tx.sql.query(`UPDATE job_bids SET status = CASE WHEN id = $2 THEN 'accepted' ELSE 'rejected' END WHERE job_id = $1`, [
      jobId,
      bidId,
    ]);
    return {
      job_id: jobId,
      status: 'executing' as const,
      accepted_bid_id: bidId,
      bidder_wallet: getAddress(bid.bidder_wallet),
    };
  });
}
