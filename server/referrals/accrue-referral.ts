import { randomUUID } from 'node:crypto';
import { PLATFORM_FEES, WORLD_GRANTS } from '../credits/accounts';
import { transfer } from '../credits/ledger';
import type { Queryable } from '../core/db/sql-runner';
import { BONUS_QUALIFYING_FEES, FEE_SHARE_BPS, REFERRAL_PENDING, SIGNUP_BONUS } from './rules';

/**
 * Called in the transaction that credits a platform fee to `platform:fees`, with the wallet the
 * fee is attributed to (a job's poster, a signal's publisher). When that wallet was referred, 5% of
 * the fee moves from the platform's fees to the pending referral account, and once the wallet's
 * fees reach the qualifying amount the referrer's signup bonus is accrued (once per wallet, ever).
 */
export async function accrueReferral(
  payerWallet: string,
  fee: bigint,
  ref: { type: string; id: string },
  runner: Queryable,
): Promise<void> {
  if (fee <= 0n) return;
  const [row] = await runner.query<{ referrer_wallet: string; fees_generated: string | bigint; bonus_due: boolean }>(
    `UPDATE referrals SET fees_generated = fees_generated + $2::bigint
     WHERE wallet = $1 AND referrer_wallet IS NOT NULL
     RETURNING referrer_wallet, fees_generated, (bonus_accrued_at IS NULL AND fees_generated >= $3::bigint) AS bonus_due`,
    [payerWallet, fee.toString(), BONUS_QUALIFYING_FEES.toString()],
  );
  if (!row) return;
  const share = (fee * FEE_SHARE_BPS) / 10_000n;
  if (share > 0n) {
    await transfer(
      PLATFORM_FEES,
      REFERRAL_PENDING,
      share,
      { reason: 'referral_fee_share', refType: ref.type, refId: ref.id },
      runner,
    );
    await runner.query(
      `INSERT INTO referral_earnings (id, referrer_wallet, referred_wallet, kind, amount, ref_type, ref_id)
       VALUES ($1, $2, $3, 'fee_share', $4::bigint, $5, $6)`,
      [randomUUID(), row.referrer_wallet, payerWallet, share.toString(), ref.type, ref.id],
    );
  }
  if (row.bonus_due) {
    const [claimed] = await runner.query(
      `UPDATE referrals SET bonus_accrued_at = now() WHERE wallet = $1 AND bonus_accrued_at IS NULL RETURNING wallet`,
      [payerWallet],
    );
    if (!claimed) return;
    const { applied } = await transfer(
      WORLD_GRANTS,
      REFERRAL_PENDING,
      SIGNUP_BONUS,
      {
        reason: 'referral_signup_bonus',
        refType: 'referral',
        refId: payerWallet,
        idempotencyKey: `referral_bonus:${payerWallet}`,
      },
      runner,
    );
    if (applied) {
      await runner.query(
        `INSERT INTO referral_earnings (id, referrer_wallet, referred_wallet, kind, amount, ref_type, ref_id)
         VALUES ($1, $2, $3, 'signup_bonus', $4::bigint, 'referral', $3) ON CONFLICT DO NOTHING`,
        [randomUUID(), row.referrer_wallet, payerWallet, SIGNUP_BONUS.toString()],
      );
    }
  }
}
