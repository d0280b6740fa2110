import type { Address } from 'viem';
import { database } from '../core/db';
import { MICRO_PER_CLAW } from '../core/money';
import { walletAccount, WORLD_GRANTS } from './accounts';
import { transfer } from './ledger';

export const WELCOME_GRANT = 100n * MICRO_PER_CLAW;

const grantKey = (wallet: Address) => `welcome:${wallet}`;

/**
 * Pays the 100 CLAW welcome grant to a wallet once, ever: the ledger's idempotency key makes
 * every later or concurrent attempt a no-op. Returns the amount paid by this call.
 */
export async function payWelcomeGrant(wallet: Address): Promise<bigint> {
  const { applied } = await transfer(
    WORLD_GRANTS,
    walletAccount(wallet),
    WELCOME_GRANT,
    { reason: 'welcome_grant', refType: 'wallet', refId: wallet, idempotencyKey: grantKey(wallet) },
    database().sql,
  );
  return applied ? WELCOME_GRANT : 0n;
}

/** True once the wallet received its welcome grant. */
export async function hasWelcomeGrant(wallet: Address): Promise<boolean> {
  const rows = await database().sql.query('SELECT 1 FROM ledger_transactions WHERE idempotency_key = $1', [grantKey(wallet)]);
  return rows.length > 0;
}
