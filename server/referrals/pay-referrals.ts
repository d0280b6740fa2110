import { getAddress } from 'viem';
import { walletAccount } from '../credits/accounts';
import { releaseHold } from '../credits/release-hold';
import { withTransaction } from '../core/db';
import { REFERRAL_PENDING_HOLD } from './rules';

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
      // Many referrers are paid in several ledger transactions, all in this database transaction.
      const { released } = await releaseHold(
        {
          hold: REFERRAL_PENDING_HOLD,
          to: [...totals].map(([wallet, amount]) => ({ account: walletAccount(wallet), amount })),
          reason: 'referral_payout',
          ref: { type: 'referral_payout' },
        },
        tx.sql,
      );
      return { referrers: totals.size, paid: released };
    },
    { timeoutMs: 120_000 },
  );
}
