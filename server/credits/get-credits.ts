import type { Address } from 'viem';
import { database } from '../core/db';
import type { Caller } from '../core/caller';
import { walletAccount } from './accounts';
import { balanceOf } from './ledger';
import { microToClaw } from '../core/money';

interface PostingRow {
  transaction_id: string;
  amount: string | bigint;
  reason: string;
  ref_type: string | null;
  ref_id: string | null;
  created_at: Date | string;
}

/** The last entries of a wallet's account, newest first. */
export async function recentTransactions(wallet: Address, limit: number) {
  const rows = await database().sql.query<PostingRow>(
    `SELECT p.transaction_id, p.amount, t.reason, t.ref_type, t.ref_id, p.created_at
     FROM ledger_postings p JOIN ledger_transactions t ON t.id = p.transaction_id
     WHERE p.account_id = $1 ORDER BY p.id DESC LIMIT ${Math.min(100, Math.max(1, Math.floor(limit)))}`,
    [walletAccount(wallet)],
  );
  return rows.map((row) => {
    const amount = BigInt(row.amount);
    return {
      transaction_id: row.transaction_id,
      direction: amount < 0n ? ('debit' as const) : ('credit' as const),
      amount_claw: microToClaw(amount < 0n ? -amount : amount),
      reason: row.reason,
      ref_type: row.ref_type,
      ref_id: row.ref_id,
      created_at: new Date(row.created_at).toISOString(),
    };
  });
}

export async function dailySpend(wallet: Address): Promise<bigint> {
  const [row] = await database().sql.query<{ spent: string | bigint }>(
    `SELECT spent FROM daily_spend WHERE wallet = $1 AND day = (now() AT TIME ZONE 'utc')::date`,
    [wallet],
  );
  return row ? BigInt(row.spent) : 0n;
}

/** GET /api/v1/credits */
export async function getCredits(caller: Caller) {
  const limit = caller.maxSpendPerDay;
  const [balance, spent, transactions] = await Promise.all([
    balanceOf(walletAccount(caller.wallet), database().sql),
    dailySpend(caller.wallet),
    recentTransactions(caller.wallet, 20),
  ]);
  return {
    wallet: caller.wallet,
    balance_claw: microToClaw(balance),
    daily_spend_claw: microToClaw(spent),
    daily_limit_claw: limit === null ? null : microToClaw(limit),
    transactions,
  };
}
