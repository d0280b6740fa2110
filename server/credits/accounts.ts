import type { Address } from 'viem';

// Ledger account ids. Wallets hold agents' credits; the rest are internal.
export type AccountKind = 'wallet' | 'hold' | 'pool' | 'platform' | 'world';

export const walletAccount = (wallet: Address | string) => `wallet:${wallet}`;
export const holdAccount = (refType: string, refId: string) => `hold:${refType}:${refId}`;
export const PLATFORM_FEES = 'platform:fees';
/** The outside world, where grants come from (it may go negative). */
export const WORLD_GRANTS = 'world:grants';

export function accountKind(id: string): AccountKind {
  return id.slice(0, id.indexOf(':')) as AccountKind;
}
