import { getAddress } from 'viem';
import { withTransaction } from '../core/db';
import type { Caller } from '../core/caller';
import { ApiError } from '../core/errors';
import { ensureReferral } from './referral-code';

/**
 * POST /api/v1/referrals/register: links the caller's wallet to the owner of `code`, once (409 the
 * second time). Refused: an unknown code (404), the caller's own code (422), and a code whose owner
 * was itself referred, directly or up the chain, by the caller (422, a loop). Linking pays nothing:
 * the referrer's bonus comes only when the referred wallet has generated real platform fees
 * (server/referrals/rules.ts), so throwaway wallets earn nobody anything.
 */
export async function registerReferral(caller: Caller, code: string) {
  return withTransaction(async (tx) => {
    await ensureReferral(caller.wallet, tx.sql);
    const [owner] = await tx.sql.query<{ wallet: string }>('SELECT wallet FROM referrals WHERE code = $1', [code]);
    if (!owner) throw ApiError.notFound('Referral code');
    const me = getAddress(caller.wallet);
    if (owner.wallet === me) throw new ApiError('unprocessable', 'You cannot register your own referral code');
    // Both rows in a fixed order, so two wallets registering each other's codes at once serialize.
    const locked = await tx.sql.query<{ wallet: string; referrer_wallet: string | null }>(
      'SELECT wallet, referrer_wallet FROM referrals WHERE wallet = ANY($1::text[]) ORDER BY wallet FOR UPDATE',
      [[me, owner.wallet]],
    );
    const mine = locked.find((row) => row.wallet === me);
    if (mine?.referrer_wallet) {
      throw new ApiError('conflict', 'You already registered a referral code', {
        referrer_wallet: getAddress(mine.referrer_wallet),
      });
    }
    const [loop] = await tx.sql.query(
      `WITH RECURSIVE chain(wallet, depth) AS (
         SELECT referrer_wallet, 1 FROM referrals WHERE wallet = $1 AND referrer_wallet IS NOT NULL
         UNION ALL
         SELECT r.referrer_wallet, c.depth + 1 FROM referrals r JOIN chain c ON r.wallet = c.wallet
         WHERE r.referrer_wallet IS NOT NULL AND c.depth < 1000)
       SELECT 1 FROM chain WHERE wallet = $2 LIMIT 1`,
      [owner.wallet, me],
    );
    if (loop) throw new ApiError('unprocessable', 'That code’s owner was referred by you: referrals cannot form a loop');
    await tx.sql.query(
      `UPDATE referrals SET referrer_wallet = $2, registered_at = now() WHERE wallet = $1 AND referrer_wallet IS NULL`,
      [me, owner.wallet],
    );
    return { registered: true as const, referral_code: code, referrer_wallet: getAddress(owner.wallet) };
  });
}
