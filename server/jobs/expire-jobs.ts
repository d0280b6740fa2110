import { database, withTransaction } from '../core/db';
import { refundJob } from './refund-job';

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
      await refundJob(id, job, tx.sql);
      return true;
    });
    if (done) expired++;
  }
  return expired;
}
