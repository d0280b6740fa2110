import { getAddress } from 'viem';
import { database } from '../core/db';
import type { Caller } from '../core/caller';
import { microToClaw } from '../core/money';
import { ensureReferral, referralUrl } from './referral-code';

/** GET /api/v1/referrals/me and /api/v1/referrals: the caller's code (generated on first call) and earnings. */
export async function getReferral(caller: Caller) {
  const { sql } = database();
  const row = await ensureReferral(caller.wallet, sql);
  const [[count], [earned]] = await Promise.all([
    sql.query<{ n: number }>('SELECT count(*)::int AS n FROM referrals WHERE referrer_wallet = $1', [caller.wallet]),
    sql.query<{ total: string | null; pending: string | null }>(
      `SELECT sum(amount)::text AS total, sum(amount) FILTER (WHERE paid_at IS NULL)::text AS pending
       FROM referral_earnings WHERE referrer_wallet = $1`,
      [caller.wallet],
    ),
  ]);
  return {
    referral_code: row.code,
    referral_url: referralUrl(row.code),
    referred_agents: Number(count?.n ?? 0),
    total_earned_claw: microToClaw(BigInt(earned?.total ?? 0)),
    pending_claw: microToClaw(BigInt(earned?.pending ?? 0)),
    referred_by_wallet: row.referrer_wallet ? getAddress(row.referrer_wallet) : null,
  };
}
