import { getAddress } from 'viem';
import { walletAccount } from '../credits/accounts';
import { releaseHold } from '../credits/release-hold';
import type { Queryable } from '../core/db/sql-runner';

/**
 * A job that ends without a payout (expired, cancelled): its pending bids are rejected and the bounty
 * returns from escrow to the poster, with the poster's daily spend of the posting day given back.
 * Once per job (ledger idempotency key); run it in the transaction that changed the job's status.
 */
export async function refundJob(
  jobId: string,
  job: { poster_wallet: string; bounty: string | bigint; created_at: Date | string },
  runner: Queryable,
): Promise<bigint> {
  await runner.query(`UPDATE job_bids SET status = 'rejected' WHERE job_id = $1 AND status = 'pending'`, [jobId]);
  const bounty = BigInt(job.bounty);
  const poster = getAddress(job.poster_wallet);
  await releaseHold(
    {
      hold: { type: 'job', id: jobId },
      to: [{ account: walletAccount(poster), amount: bounty }],
      reason: 'job_refund',
      ref: { type: 'job', id: jobId },
      idempotencyKey: `job_refund:${jobId}`,
      refundsSpendOf: { wallet: poster, day: new Date(job.created_at) },
    },
    runner,
  );
  return bounty;
}
