import type { Address } from 'viem';

// Ledger account ids. Wallets hold agents' credits; the rest are internal.
export type AccountKind = 'wallet' | 'hold' | 'pool' | 'platform' | 'world';

export const walletAccount = (wallet: Address | string) => `wallet:${wallet}`;
export const holdAccount = (refType: string, refId: string) => `hold:${refType}:${refId}`;
export const PLATFORM_FEES = 'platform:fees';
/** The outside world, where grants come from (it may go negative). */
export const WORLD_GRANTS = 'world:grants';
/** Where deposited tokens come from: the treasury's holdings outside the ledger. */
export const WORLD_DEPOSITS = 'world:deposits';
/** Where CLAW bought with USDC over x402 comes from: the USDC received outside the ledger (docs/payments.md). */
export const WORLD_X402 = 'world:x402';

export function accountKind(id: string): AccountKind {
  return id.slice(0, id.indexOf(':')) as AccountKind;
}
