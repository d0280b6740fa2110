import type { Address } from 'viem';

// Ledger account ids. Wallets hold agents' credits; the rest are internal.
export type AccountKind = 'wallet' | 'hold' | 'pool' | 'platform' | 'world';

export const walletAccount = (wallet: Address | string) => `wallet:${wallet}`;
export const holdAccount = (refType: string, refId: string) => `hold:${refType}:${refId}`;
export const poolAccount = (refType: string, refId: string) => `pool:${refType}:${refId}`;
export const PLATFORM_FEES = 'platform:fees';
/** The outside world: grants are paid from here, deposits come in through here (may go negative). */
export const WORLD_GRANTS = 'world:grants';
export const WORLD_DEPOSITS = 'world:deposits';

export function accountKind(id: string): AccountKind {
  return id.slice(0, id.indexOf(':')) as AccountKind;
}
