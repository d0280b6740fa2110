import { database } from '../server/core/db';
import type { Address } from 'viem';
import { walletAccount, WORLD_GRANTS } from '../server/credits/accounts';
import { balanceOf, transfer } from '../server/credits/ledger';
import { clawToMicro, microToClaw } from '../server/core/money';

/** Seeds a wallet with CLAW (a grant from the outside world, as the welcome grant is). */
export async function fund(wallet: Address | string, claw: number): Promise<void> {
  await transfer(WORLD_GRANTS, walletAccount(wallet), clawToMicro(claw)!, { reason: 'test_seed' }, database().sql);
}

export async function clawBalance(wallet: Address | string): Promise<number> {
  return microToClaw(await balanceOf(walletAccount(wallet), database().sql));
}
