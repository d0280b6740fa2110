import { randomUUID } from 'node:crypto';
import { readTogether, type ReadPart } from '../core/db/read-together';
import { ASYNC_COMMIT } from '../core/db/async-commit';
import { SqlParams, type Queryable } from '../core/db/sql-runner';
import { ApiError } from '../core/errors';
import { feeOf, microToClaw } from '../core/money';
import { accountKind } from './accounts';
import { alongsideCtes, LedgerBatcher, SINGLE_SCOPE, type Alongside, type BatchItem } from './ledger-batch';

// The double-entry ledger. Every movement is one SQL statement: the account updates, the
// transaction row, its postings and the daily-spend counter commit together or not at all,
// and the database's CHECK constraints refuse an overdraft or a spend over the daily limit,
// so concurrent callers can never drive a balance below zero.

export interface Posting {
  account: string;
  /** micro-CLAW; positive credits the account, negative debits it. */
  amount: bigint;
}

/** A debit that counts against the initiating wallet's self-imposed daily limit. */
export interface Spend {
  wallet: string;
  amount: bigint;
  /** micro-CLAW per UTC day; null for no limit. */
  limit: bigint | null;
}

export interface PostInput {
  reason: string;
  refType?: string;
  refId?: string;
  postings: Posting[];
  /** A key already used makes this call a no-op that returns applied: false. */
  idempotencyKey?: string;
  spend?: Spend;
  /** Give back earlier spend (a refund of a charged call): subtracted from that wallet's day. */
  unspend?: { wallet: string; amount: bigint; day: Date };
  /**
   * Extra data-modifying CTEs to run in the same statement, so they happen exactly when the
   * money moves. They may refer to `txn` (empty when an idempotency key made this a no-op); a
   * batched post's CTEs are named through `scope` and do not refer to `txn`. Rows of a kind (ledger-batch.ts,
   * RowsKind) go together in a batch.
   */
  alongside?: Alongside;
  /**
   * Go with the other batched posts on this runner that are waiting for the statement in flight
   * (ledger-batch.ts): for the hot paths where many posts touch the same accounts (a paid call's charge
   * and settlement). Only without an idempotency key, on a runner outside any transaction (the pool).
   */
  batch?: boolean;
  /**
   * Commit without waiting for the disk (core/db/async-commit.ts): only for a post whose loss in a database
   * crash something else repairs (an invocation's settlement: the stale-invocation sweep refunds it). A batch
   * commits asynchronously only when every post in it may.
   */
  asyncCommit?: boolean;
}

export class InsufficientCreditsError extends ApiError {}

function assertBalanced(postings: Posting[]): void {
  if (postings.length < 2) throw new Error('a transaction needs at least two postings');
  const sum = postings.reduce((total, posting) => total + posting.amount, 0n);
  if (sum !== 0n) throw new Error(`postings must sum to zero, got ${sum}`);
  if (postings.some((posting) => posting.amount === 0n)) throw new Error('zero postings are not recorded');
}

function isConstraint(error: unknown, name: string): boolean {
  const e = error as { constraint?: string; message?: string };
  return e?.constraint === name || (typeof e?.message === 'string' && e.message.includes(name));
}

function isRetryable(error: unknown): boolean {
  const code = (error as { code?: string })?.code;
  return code === '40P01' || code === '40001';
}

/**
 * Posts one balanced transaction atomically. Throws 402 insufficient_credits when a
 * non-negative account would go below zero, 402 daily_limit_exceeded over the daily limit.
 */
export async function post(input: PostInput, runner: Queryable): Promise<{ applied: boolean; transactionId: string }> {
  assertBalanced(input.postings);
  // One posting per account, in a fixed order: concurrent transfers lock rows alike.
  const merged = new Map<string, bigint>();
  for (const posting of input.postings) merged.set(posting.account, (merged.get(posting.account) ?? 0n) + posting.amount);
  const postings = [...merged].filter(([, amount]) => amount !== 0n).sort(([a], [b]) => (a < b ? -1 : 1));
  const id = randomUUID();
  // Postings that cancel out (a wallet paying itself) move nothing and record nothing.
  if (postings.length === 0) return { applied: true, transactionId: id };
  if (input.batch && !input.idempotencyKey) {
    const item: BatchItem = {
      id,
      reason: input.reason,
      refType: input.refType ?? null,
      refId: input.refId ?? null,
      postings,
      spend: input.spend,
      unspend: input.unspend,
      alongside: input.alongside,
      asyncCommit: input.asyncCommit,
    };
    return batcherFor(runner).submit(item);
  }
  return postOne(input, id, postings, runner);
}

const batchers = new WeakMap<Queryable, LedgerBatcher>();

function batcherFor(runner: Queryable): LedgerBatcher {
  let batcher = batchers.get(runner);
  if (!batcher) {
    batcher = new LedgerBatcher(runner, (item) =>
      postOne(
        {
          reason: item.reason,
          refType: item.refType ?? undefined,
          refId: item.refId ?? undefined,
          postings: [],
          spend: item.spend,
          unspend: item.unspend,
          alongside: item.alongside,
          asyncCommit: item.asyncCommit,
        },
        item.id,
        item.postings,
        runner,
      ),
    );
    batchers.set(runner, batcher);
  }
  return batcher;
}

/** One post as one statement (`postings` merged and sorted by post()). */
async function postOne(
  input: PostInput,
  id: string,
  postings: [string, bigint][],
  runner: Queryable,
): Promise<{ applied: boolean; transactionId: string }> {
  const p = new SqlParams();
  const rows = postings.map(([account, amount]) => {
    const kind = accountKind(account);
    return `(${p.add(account)}::text, ${p.add(amount.toString())}::bigint, ${p.add(kind)}::text, ${p.add(kind === 'world')}::boolean)`;
  });
  const ctes = [
    `p(account, amount, kind, allow_negative) AS (VALUES ${rows.join(', ')})`,
    `txn AS (
      INSERT INTO ledger_transactions (id, reason, ref_type, ref_id, idempotency_key)
      VALUES (${p.add(id)}, ${p.add(input.reason)}, ${p.add(input.refType ?? null)}, ${p.add(input.refId ?? null)}, ${p.add(input.idempotencyKey ?? null)})
      ON CONFLICT (idempotency_key) DO NOTHING
      RETURNING id)`,
    // A debit updates an existing row, where the no-overdraft CHECK applies; a credit can never
    // overdraw, so it upserts (Postgres checks an upsert's proposed row before the conflict, which
    // is why debits cannot take this path).
    `upd AS (
      UPDATE ledger_accounts a SET balance = a.balance + p.amount
      FROM p WHERE a.id = p.account AND p.amount < 0 AND EXISTS (SELECT 1 FROM txn)
      RETURNING a.id)`,
    // A debited account with no row yet has a balance of 0: its row is created with the negative
    // balance, which the no-overdraft CHECK refuses (402) unless the account may go negative. Done in
    // the statement, not before it, so a rolled-back transaction leaves nothing that later debits
    // trust (an in-memory list of known accounts once outlived a rollback and turned 402s into 500s).
    `cre AS (
      INSERT INTO ledger_accounts (id, kind, balance, allow_negative)
      SELECT p.account, p.kind, p.amount, p.allow_negative FROM p
      WHERE (p.amount > 0 OR p.account NOT IN (SELECT id FROM upd)) AND EXISTS (SELECT 1 FROM txn)
      ON CONFLICT (id) DO UPDATE SET balance = ledger_accounts.balance + excluded.balance
      RETURNING id)`,
    `ins AS (
      INSERT INTO ledger_postings (transaction_id, account_id, amount)
      SELECT txn.id, p.account, p.amount FROM txn, p
      RETURNING 1)`,
  ];
  if (input.spend && input.spend.amount > 0n) {
    ctes.push(`spend AS (
      INSERT INTO daily_spend (wallet, day, spent, spend_limit)
      SELECT ${p.add(input.spend.wallet)}, (now() AT TIME ZONE 'utc')::date, ${p.add(input.spend.amount.toString())}::bigint,
        ${p.add(input.spend.limit?.toString() ?? null)}::bigint FROM txn
      ON CONFLICT (wallet, day) DO UPDATE
        SET spent = daily_spend.spent + excluded.spent, spend_limit = excluded.spend_limit
      RETURNING spent)`);
  }
  if (input.unspend && input.unspend.amount > 0n) {
    ctes.push(`unspend AS (
      UPDATE daily_spend SET spent = GREATEST(0, spent - ${p.add(input.unspend.amount.toString())}::bigint)
      WHERE wallet = ${p.add(input.unspend.wallet)} AND day = ${p.add(input.unspend.day.toISOString().slice(0, 10))}::date
        AND EXISTS (SELECT 1 FROM txn)
      RETURNING spent)`);
  }
  // Whatever else must happen exactly when the money moves (a record, an event), in the same statement.
  ctes.push(...alongsideCtes(input.alongside, p, SINGLE_SCOPE));
  const sql = `WITH ${ctes.join(',\n')}
    SELECT (SELECT count(*) FROM txn)::int AS applied${input.asyncCommit ? `, ${ASYNC_COMMIT} AS async_commit` : ''}`;
  const params = p.values;

  for (let attempt = 0; ; attempt++) {
    try {
      const [result] = await runner.query<{ applied: number }>(sql, params);
      return { applied: Number(result?.applied ?? 0) === 1, transactionId: id };
    } catch (error) {
      if (isConstraint(error, 'ledger_accounts_no_overdraft')) {
        throw new InsufficientCreditsError('insufficient_credits', 'Insufficient CLAW credits', {
          required_claw: microToClaw(postings.filter(([, a]) => a < 0n).reduce((t, [, a]) => t - a, 0n)),
        });
      }
      if (isConstraint(error, 'daily_spend_within_limit')) {
        throw new ApiError('daily_limit_exceeded', 'This would exceed the agent’s daily spend limit (max_spend_claw_per_day)', {
          daily_limit_claw:
            input.spend?.limit === null || input.spend?.limit === undefined ? null : microToClaw(input.spend.limit),
          requested_claw: microToClaw(input.spend?.amount ?? 0n),
        });
      }
      if (isRetryable(error) && attempt < 5) continue;
      throw error;
    }
  }
}

/** Moves `amount` from one account to another. */
export function transfer(
  from: string,
  to: string,
  amount: bigint,
  meta: Omit<PostInput, 'postings'>,
  runner: Queryable,
): Promise<{ applied: boolean; transactionId: string }> {
  return post(
    {
      ...meta,
      postings: [
        { account: from, amount: -amount },
        { account: to, amount },
      ],
    },
    runner,
  );
}

/**
 * Splits `amount` held in `from` among `shares` by weight after a fee in basis points (rounded up).
 * Each share is floored; the fee account gets the fee and the `remainderTo` account whatever
 * flooring left, so the parts always add up exactly.
 */
export function splitPostings(
  from: string,
  amount: bigint,
  shares: { account: string; weight: bigint }[],
  fee: { account: string; bps: bigint },
  remainderTo: string,
): Posting[] {
  const feeAmount = feeOf(amount, fee.bps);
  const distributable = amount - feeAmount;
  const totalWeight = shares.reduce((t, s) => t + s.weight, 0n);
  const postings: Posting[] = [{ account: from, amount: -amount }];
  let paid = 0n;
  if (totalWeight > 0n) {
    for (const share of shares) {
      const part = (distributable * share.weight) / totalWeight;
      if (part > 0n) postings.push({ account: share.account, amount: part });
      paid += part;
    }
  }
  if (feeAmount > 0n) postings.push({ account: fee.account, amount: feeAmount });
  const remainder = distributable - paid;
  if (remainder > 0n) postings.push({ account: remainderTo, amount: remainder });
  return postings;
}

/** An account's balance (micro-CLAW; 0 for an account never posted to), as a part of a combined read. */
export function balancePart(account: string): ReadPart<bigint> {
  return {
    sql: (p) => `SELECT balance::text FROM ledger_accounts WHERE id = ${p.add(account)}`,
    read: (value) => BigInt((value as string | null) ?? 0),
  };
}

export async function balanceOf(account: string, runner: Queryable): Promise<bigint> {
  return (await readTogether({ balance: balancePart(account) }, runner)).balance;
}
