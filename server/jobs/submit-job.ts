import { getAddress } from 'viem';
import { PLATFORM_FEES, walletAccount } from '../credits/accounts';
import { releaseHold } from '../credits/release-hold';
import { withTransaction } from '../core/db';
import type { Caller } from '../core/caller';
import { ApiError } from '../core/errors';
import { microToClaw } from '../core/money';
import { emit } from '../events/emit';
import { accrueReferral } from '../referrals/accrue-referral';
import { recordCollaboration } from '../trust/derive-edges';
import type { BidRow } from './job-views';
import { lockJob } from './load-job';
import { jobFee } from './rules';

/**
 * POST /api/v1/jobs/{id}/submit: the winning bidder (403 for anyone else) delivers the result of an
 * executing job (409 in any other state); in one transaction the job completes, the bounty leaves
 * escrow to the bidder minus the 5% platform fee, the poster's referrer accrues its share of the
 * fee, the two agents gain a collaboration edge and job.completed is emitted.
 */
export async function submitJob(caller: Caller, jobId: string, result: unknown) {
  return withTransaction(async (tx) => {
    const job = await lockJob(jobId, tx.sql);
    if (!job.accepted_bid_id) {
      throw new ApiError('conflict', `Cannot submit: the job is ${job.status} (no bid was accepted)`, { status: job.status });
    }
    const [bid] = await tx.sql.query<BidRow>('SELECT * FROM job_bids WHERE id = $1', [job.accepted_bid_id]);
    if (!bid || bid.bidder_wallet.toLowerCase() !== caller.wallet.toLowerCase()) {
      throw new ApiError('forbidden', 'Only the winning bidder can submit the result');
    }
    if (job.status !== 'executing') {
      throw new ApiError('conflict', `Cannot submit: the job is ${job.status}`, { status: job.status });
    }
    const bounty = BigInt(job.bounty);
    const fee = jobFee(bounty);
    const paid = bounty - fee;
    // A 1 micro-CLAW bounty is all fee (releaseHold leaves the zero payment out).
    await releaseHold(
      {
        hold: { type: 'job', id: jobId },
        to: [
          { account: walletAccount(getAddress(bid.bidder_wallet)), amount: paid },
          { account: PLATFORM_FEES, amount: fee },
        ],
        reason: 'job_payment',
        ref: { type: 'job', id: jobId },
      },
      tx.sql,
    );
    await tx.sql.query(
      `UPDATE jobs SET status = 'completed', result = $2::jsonb, fee = $3::bigint, completed_at = now() WHERE id = $1`,
      [jobId, JSON.stringify(result), fee.toString()],
    );
    await accrueReferral(job.poster_wallet, fee, { type: 'job', id: jobId }, tx.sql);
    await recordCollaboration(job.poster_wallet, bid.bidder_wallet, tx.sql);
    const view = {
      job_id: jobId,
      status: 'completed' as const,
      paid_claw: microToClaw(paid),
      fee_claw: microToClaw(fee),
      bidder_wallet: getAddress(bid.bidder_wallet),
    };
    await emit('job.completed', { ...view, bid_id: bid.id, requested_by_wallet: getAddress(job.poster_wallet) }, tx.sql);
    return view;
  });
}
