import { database } from '../server/core/db';
import type { Address } from 'viem';
import { walletAccount, WORLD_DEPOSITS, WORLD_GRANTS } from '../server/credits/accounts';
import { balanceOf, transfer } from '../server/credits/ledger';
import { clawToMicro, microToClaw } from '../server/core/money';

/** Seeds a wallet with CLAW (a grant from the outside world, as the welcome grant is). */
export async function fund(wallet: Address | string, claw: number): Promise<void> {
  await transfer(WORLD_GRANTS, walletAccount(wallet), clawToMicro(claw)!, { reason: 'test_seed' }, database().sql);
}

/** Credits `claw` as a claimed on-chain deposit would (from world:deposits, reason deposit). */
export async function deposited(wallet: Address | string, claw: number): Promise<void> {
  await transfer(WORLD_DEPOSITS, walletAccount(wallet), clawToMicro(claw)!, { reason: 'deposit' }, database().sql);
}

export async function clawBalance(wallet: Address | string): Promise<number> {
  return microToClaw(await balanceOf(walletAccount(wallet), database().sql));
}

/**
 * The ledger's invariants: every account's balance equals the sum of its postings, every
 * transaction's postings sum to zero, so all balances together sum to zero (no money created or lost).
 */
export async function assertLedgerBalanced(): Promise<void> {
  const { sql } = database();
  const [total] = await sql.query<{ total: string | null }>('SELECT sum(balance)::text AS total FROM ledger_accounts');
  if (BigInt(total?.total ?? '0') !== 0n) throw new Error(`ledger accounts sum to ${total?.total}, not 0`);
  const unbalanced = await sql.query(
    'SELECT transaction_id FROM ledger_postings GROUP BY transaction_id HAVING sum(amount) <> 0 LIMIT 1',
  );
  if (unbalanced.length) throw new Error(`transaction ${JSON.stringify(unbalanced[0])} does not sum to zero`);
  const drift = await sql.query(
    `SELECT a.id FROM ledger_accounts a LEFT JOIN (SELECT account_id, sum(amount) AS s FROM ledger_postings GROUP BY account_id) p
       ON p.account_id = a.id WHERE a.balance <> coalesce(p.s, 0) LIMIT 1`,
  );
  if (drift.length) throw new Error(`account ${JSON.stringify(drift[0])} does not match its postings`);
  const negative = await sql.query(`SELECT id FROM ledger_accounts WHERE balance < 0 AND NOT allow_negative LIMIT 1`);
  if (negative.length) throw new Error(`account ${JSON.stringify(negative[0])} is overdrawn`);
}

/** The balance of any ledger account in CLAW. */
export async function accountClaw(account: string): Promise<number> {
  return microToClaw(await balanceOf(account, database().sql));
}
