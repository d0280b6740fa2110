import type { Address } from 'viem';
import { walletAccount, WORLD_GRANTS } from './accounts';
import { transfer } from './ledger';
import { MICRO_PER_CLAW } from './money';

export const WELCOME_GRANT = 100n * MICRO_PER_CLAW;

/**
 * Pays the 100 CLAW welcome grant to a wallet once, ever: the ledger's idempotency key makes
 * every later or concurrent attempt a no-op. Returns the amount paid by this call.
 */
export async function payWelcomeGrant(wallet: Address): Promise<bigint> {
  const { applied } = await transfer(WORLD_GRANTS, walletAccount(wallet), WELCOME_GRANT, {
    reason: 'welcome_grant',
    refType: 'wallet',
    refId: wallet,
    idempotencyKey: `welcome:${wallet}`,
  });
  return applied ? WELCOME_GRANT : 0n;
}
