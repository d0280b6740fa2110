import { getAddress } from 'viem';
import { withTransaction } from '../core/db';
import type { Caller } from '../core/caller';
import { ApiError } from '../core/errors';
import { microToClaw } from '../core/money';
import { emit } from '../events/emit';
import type { BidRow } from './job-views';
import { lockJob } from './load-job';
import { refundJob } from './refund-job';

/**
 * POST /api/v1/jobs/{id}/cancel: the poster (403 for anyone else) takes the bounty back. Allowed for
 * an `open` or `bid` job (no work accepted yet; pending bids are rejected) and for an `executing` job
 * once its delivery deadline has passed without a submission (409 before it, with the deadline, and
 * in any other state). Under the job's row lock, in one transaction: status `cancelled`, the escrow
 * back to the poster (its daily spend of the posting day given back), and the public job.cancelled
 * event. A submission that arrives first wins; after the cancellation a submission is 409.
 */
export async function cancelJob(caller: Caller, jobId: string) {
  return withTransaction(async (tx) => {
    const job = await lockJob(jobId, tx.sql);
    if (job.poster_wallet.toLowerCase() !== caller.wallet.toLowerCase()) {
      throw new ApiError('forbidden', 'Only the job’s poster can cancel it');
    }
    if (job.status === 'executing' && !job.past_deadline) {
      throw new ApiError('conflict', 'The winning bidder is still within its delivery deadline', {
        status: job.status,
        delivery_deadline: job.delivery_deadline ? new Date(job.delivery_deadline).toISOString() : null,
      });
    }
    if (job.status !== 'open' && job.status !== 'bid' && job.status !== 'executing') {
      throw new ApiError('conflict', `Cannot cancel: the job is ${job.status}`, { status: job.status });
    }
    const [cancelled] = await tx.sql.query<{ cancelled_at: Date | string }>(
      `UPDATE jobs SET status = 'cancelled', cancelled_at = now() WHERE id = $1 RETURNING cancelled_at`,
      [jobId],
    );
    const bounty = await refundJob(jobId, job, tx.sql);
    const [accepted] = job.accepted_bid_id
      ? await tx.sql.query<BidRow>('SELECT * FROM job_bids WHERE id = $1', [job.accepted_bid_id])
      : [];
    const view = {
      job_id: jobId,
      status: 'cancelled' as const,
      refunded_claw: microToClaw(bounty),
      cancelled_at: new Date(cancelled!.cancelled_at).toISOString(),
    };
    await emit(
      'job.cancelled',
      {
        ...view,
        reason: job.status === 'executing' ? 'delivery_deadline_passed' : 'cancelled_by_poster',
        requested_by_wallet: getAddress(job.poster_wallet),
        bidder_wallet: accepted ? getAddress(accepted.bidder_wallet) : null,
      },
      tx.sql,
    );
    return view;
  });
}
