import { getAddress } from 'viem';
import { walletAccount } from '../credits/accounts';
import { post, type Posting } from '../credits/ledger';
import { withTransaction } from '../core/db';
import { REFERRAL_PENDING } from './rules';

const POSTINGS_PER_TRANSACTION = 1_000;

/**
 * Scheduled (hourly; pays once a week): every earning accrued before the start of the current ISO
 * week (Monday 00:00 UTC) is paid from the pending referral account to its referrer. Claiming the
 * rows and moving the money is one transaction; a row is claimed once, on any number of instances.
 */
export async function payReferrals(asOf: Date = new Date()): Promise<{ referrers: number; paid: bigint }> {
  return withTransaction(
    async (tx) => {
      const rows = await tx.sql.query<{ referrer_wallet: string; amount: string | bigint }>(
        `UPDATE referral_earnings SET paid_at = now()
         WHERE paid_at IS NULL AND created_at < date_trunc('week', $1::timestamptz AT TIME ZONE 'utc') AT TIME ZONE 'utc'
         RETURNING referrer_wallet, amount`,
        [asOf],
      );
      const totals = new Map<string, bigint>();
      for (const row of rows) {
        const wallet = getAddress(row.referrer_wallet);
        totals.set(wallet, (totals.get(wallet) ?? 0n) + BigInt(row.amount));
      }
      const credits: Posting[] = [...totals].map(([wallet, amount]) => ({ account: walletAccount(wallet), amount }));
      let paid = 0n;
      for (let start = 0; start < credits.length; start += POSTINGS_PER_TRANSACTION) {
        const chunk = credits.slice(start, start + POSTINGS_PER_TRANSACTION);
        const total = chunk.reduce((t, c) => t + c.amount, 0n);
        await post(
          {
            reason: 'referral_payout',
            refType: 'referral_payout',
            postings: [{ account: REFERRAL_PENDING, amount: -total }, ...chunk],
          },
          tx.sql,
        );
        paid += total;
      }
      return { referrers: totals.size, paid };
    },
    { timeoutMs: 120_000 },
  );
}
