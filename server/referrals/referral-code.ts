import { randomInt } from 'node:crypto';
import { getAddress } from 'viem';
import type { Queryable } from '../core/db/sql-runner';
import { currentRuntime } from '../core/runtime';

// Unambiguous uppercase letters and digits (no 0/O, 1/I/L): 31^8, about 8.5e11 codes.
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

function randomCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

export function referralUrl(code: string): string {
  return `${currentRuntime().config.PUBLIC_BASE_URL}/?ref=${code}`;
}

/** The wallet's referral row, created with a fresh unique code on first use. */
export async function ensureReferral(
  wallet: string,
  runner: Queryable,
): Promise<{ code: string; referrer_wallet: string | null }> {
  const address = getAddress(wallet);
  for (let attempt = 0; attempt < 5; attempt++) {
    const [existing] = await runner.query<{ code: string; referrer_wallet: string | null }>(
      'SELECT code, referrer_wallet FROM referrals WHERE wallet = $1',
      [address],
    );
    if (existing) return existing;
    // A code taken by another wallet (or this wallet's row created concurrently) inserts nothing: look again.
    await runner.query(`INSERT INTO referrals (wallet, code) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [address, randomCode()]);
  }
  throw new Error('could not allocate a referral code');
}
