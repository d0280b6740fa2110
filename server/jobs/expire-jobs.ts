import { getAddress } from 'viem';
import { holdAccount, walletAccount } from '../credits/accounts';
import { post } from '../credits/ledger';
import { database, withTransaction } from '../core/db';

/**
 * Scheduled: every job still open or bid after its expires_at becomes `expired`, its pending bids
 * are rejected and its bounty returns from escrow to the poster (with the poster's daily spend of
 * the posting day given back). Safe on several instances at once: each job is claimed by a
 * conditional update under its row lock and refunded once (a ledger idempotency key as well).
 */
export async function expireJobs(batch = 100): Promise<number> {
  const due = await database().sql.query<{ id: string }>(
    `SELECT id FROM jobs WHERE status IN ('open', 'bid') AND expires_at <= now() ORDER BY expires_at LIMIT ${Math.floor(batch)}`,
  );
  let expired = 0;
  for (const { id } of due) {
    const done = await withTransaction(async (tx) => {
      const [job] = await tx.sql.query<{ poster_wallet: string; bounty: string | bigint; created_at: Date | string }>(
        `UPDATE jobs SET status = 'expired' WHERE id = $1 AND status IN ('open', 'bid') AND expires_at <= now()
         RETURNING poster_wallet, bounty, created_at`,
        [id],
      );
      if (!job) return false;
      await tx.sql.query(`UPDATE job_bids SET status = 'rejected' WHERE job_id = $1 AND status = 'pending'`, [id]);
      const bounty = BigInt(job.bounty);
      const poster = getAddress(job.poster_wallet);
      await post(
        {
          reason: 'job_refund',
          refType: 'job',
          refId: id,
          idempotencyKey: `job_refund:${id}`,
          postings: [
            { account: holdAccount('job', id), amount: -bounty },
            { account: walletAccount(poster), amount: bounty },
          ],
          unspend: { wallet: poster, amount: bounty, day: new Date(job.created_at) },
        },
        tx.sql,
      );
      return true;
    });
    if (done) expired++;
  }
  return expired;
}
