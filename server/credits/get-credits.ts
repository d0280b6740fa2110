import type { Address } from 'viem';
import { database } from '../core/db';
import { readTogether, type ReadPart } from '../core/db/read-together';
import type { Caller } from '../core/caller';
import { walletAccount } from './accounts';
import { balancePart } from './ledger';
import { microToClaw } from '../core/money';

interface PostingJson {
  transaction_id: string;
  amount: string;
  reason: string;
  ref_type: string | null;
  ref_id: string | null;
  created_at: string;
}

/** The last entries of a wallet's account, newest first, as a part of a combined read. */
export function recentTransactionsPart(wallet: Address, limit: number) {
  const part: ReadPart<ReturnType<typeof transactionView>[]> = {
    sql: (p) => `SELECT coalesce(json_agg(json_build_object('transaction_id', r.transaction_id, 'amount', r.amount::text,
         'reason', r.reason, 'ref_type', r.ref_type, 'ref_id', r.ref_id, 'created_at', r.created_at) ORDER BY r.id DESC), '[]')
       FROM (SELECT p.id, p.transaction_id, p.amount, t.reason, t.ref_type, t.ref_id, p.created_at
         FROM ledger_postings p JOIN ledger_transactions t ON t.id = p.transaction_id
         WHERE p.account_id = ${p.add(walletAccount(wallet))}
         ORDER BY p.id DESC LIMIT ${Math.min(100, Math.max(1, Math.floor(limit)))}) r`,
    read: (value) => (value as PostingJson[]).map(transactionView),
  };
  return part;
}

function transactionView(row: PostingJson) {
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
}

/** What the wallet has spent today (UTC), as a part of a combined read. */
function dailySpendPart(wallet: Address): ReadPart<bigint> {
  return {
    sql: (p) => `SELECT spent::text FROM daily_spend WHERE wallet = ${p.add(wallet)} AND day = (now() AT TIME ZONE 'utc')::date`,
    read: (value) => BigInt((value as string | null) ?? 0),
  };
}

/** GET /api/v1/credits: one statement, read from the primary (a spend shows at once). */
export async function getCredits(caller: Caller) {
  const limit = caller.maxSpendPerDay;
  const { balance, spent, transactions } = await readTogether(
    {
      balance: balancePart(walletAccount(caller.wallet)),
      spent: dailySpendPart(caller.wallet),
      transactions: recentTransactionsPart(caller.wallet, 20),
    },
    database().sql,
  );
  return {
    wallet: caller.wallet,
    balance_claw: microToClaw(balance),
    daily_spend_claw: microToClaw(spent),
    daily_limit_claw: limit === null ? null : microToClaw(limit),
    transactions,
  };
}
