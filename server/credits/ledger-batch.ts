import { ASYNC_COMMIT } from '../core/db/async-commit';
import { SqlParams, type Queryable } from '../core/db/sql-runner';
import { isDatabaseUnavailable } from '../core/db/unavailable';
import { GroupQueue, type Queued } from '../core/group-queue';

// Group commit for the ledger's hottest statements (issue 22, item 2: paid calls). Every paid call
// debits its caller's wallet and credits the target owner's wallet: with many calls in flight those
// few rows are updated by every call, each update holding the row's lock until its commit (and every
// event-writing commit takes the events' commit-order lock), so single statements queue on each other.
// A batched post waits for the statement in flight (if any) and goes with everything that arrived
// meanwhile, as ONE statement: one commit, each hot row updated once by the sum of its postings.
//
// Exactness: each item keeps its own ledger transaction, postings and `alongside` CTEs. A batch moves
// an account by the net of its items' postings under the same no-overdraft and daily-limit CHECKs, which
// holds exactly when some order of the items (credits and refunds first) passes them one by one. When
// the batch statement fails for any reason the database reported (an overdraft, a daily limit, a
// conflict: it rolled back, nothing of it happened), it is halved and tried again, down to items run alone through the single
// statement, which gives each its own answer (402 for the one that overdraws, success for the rest). A
// lost connection is not retried: its outcome is unknown, so each item gets the error, as a single
// statement's caller would.

/**
 * The names a batched post's `alongside` CTEs must use: in a batch several posts' CTEs share one WITH,
 * so each item's names are suffixed. A single post's scope leaves names as they are.
 */
export interface CteScope {
  /** The CTE name to use for `base` (unique within the statement). */
  name(base: string): string;
}

export const SINGLE_SCOPE: CteScope = { name: (base) => base };

/**
 * Rows of one kind written beside a post (an invocation's record, its settlement and event). A batch writes every
 * item's rows of a kind through one set of CTEs over arrays, so its text does not grow with the batch and the
 * statement is prepared; per-item CTEs (a function `alongside`) made an 11 KB statement of 60 CTEs for 25 paid
 * calls, which PostgreSQL parsed and planned anew for every batch (5-8 ms of its CPU).
 */
export interface RowsKind<R> {
  /** Unique among kinds; names its CTEs in a batch. */
  name: string;
  /** The CTEs writing `rows`, named through `scope`: the same text for any number of rows. */
  ctes(p: SqlParams, rows: R[], scope: CteScope): string[];
}

/** What a post writes beside its money: CTEs of its own, or a row of a kind the batch writes together. */
export type Alongside = ((params: SqlParams, scope: CteScope) => string[]) | { kind: RowsKind<unknown>; row: unknown };

/** The CTEs of one post's `alongside` (a single statement's, or an item's own in a batch). */
export function alongsideCtes(alongside: Alongside | undefined, p: SqlParams, scope: CteScope): string[] {
  if (!alongside) return [];
  return typeof alongside === 'function' ? alongside(p, scope) : alongside.kind.ctes(p, [alongside.row], scope);
}

/** One post as the batch needs it: postings merged per account (non-zero), no idempotency key. */
export interface BatchItem {
  id: string;
  reason: string;
  refType: string | null;
  refId: string | null;
  postings: [account: string, amount: bigint][];
  spend?: { wallet: string; amount: bigint; limit: bigint | null };
  unspend?: { wallet: string; amount: bigint; day: Date };
  alongside?: Alongside;
  /** May commit without waiting for the disk (ledger.ts, PostInput.asyncCommit). */
  asyncCommit?: boolean;
}

/** The most posts in one statement, and the statements in flight at once per database. */
export const BATCH_MAX_ITEMS = 100;
export const BATCH_MAX_IN_FLIGHT = 2;
/** A refused batch this small runs post by post; a larger one is halved. */
const FALLBACK_SINGLES = 8;

/**
 * One statement posting every item: the transactions and postings row by row, each account moved once by
 * its net (debits through UPDATE, where the no-overdraft CHECK applies; credits by upsert, as in post()),
 * the daily spend per wallet and day once by its net, then each item's `alongside` under its own names.
 */
export function batchStatement(items: BatchItem[]): { sql: string; params: unknown[]; fixedText: boolean } {
  const p = new SqlParams();
  const txIds: string[] = [];
  const postingTx: string[] = [];
  const postingAccount: string[] = [];
  const postingAmount: string[] = [];
  const spendWallet: string[] = [];
  const spendDay: (string | null)[] = [];
  const spendAmount: string[] = [];
  const spendLimit: (string | null)[] = [];
  for (const item of items) {
    txIds.push(item.id);
    for (const [account, amount] of item.postings) {
      postingTx.push(item.id);
      postingAccount.push(account);
      postingAmount.push(amount.toString());
    }
    if (item.spend && item.spend.amount > 0n) {
      spendWallet.push(item.spend.wallet);
      spendDay.push(null);
      spendAmount.push(item.spend.amount.toString());
      spendLimit.push(item.spend.limit?.toString() ?? null);
    }
    if (item.unspend && item.unspend.amount > 0n) {
      spendWallet.push(item.unspend.wallet);
      spendDay.push(item.unspend.day.toISOString().slice(0, 10));
      spendAmount.push((-item.unspend.amount).toString());
      spendLimit.push(null);
    }
  }
  const ctes = [
    `t(id, reason, ref_type, ref_id) AS (
      SELECT * FROM unnest(${p.add(txIds)}::uuid[], ${p.add(items.map((i) => i.reason))}::text[],
        ${p.add(items.map((i) => i.refType))}::text[], ${p.add(items.map((i) => i.refId))}::text[]))`,
    `txn AS (INSERT INTO ledger_transactions (id, reason, ref_type, ref_id) SELECT id, reason, ref_type, ref_id FROM t RETURNING id)`,
    `pp(txn_id, account, amount) AS (
      SELECT * FROM unnest(${p.add(postingTx)}::uuid[], ${p.add(postingAccount)}::text[], ${p.add(postingAmount)}::bigint[]))`,
    `net AS (SELECT account, sum(amount)::bigint AS amount, split_part(account, ':', 1) AS kind FROM pp GROUP BY account
      HAVING sum(amount) <> 0)`,
    `upd AS (
      UPDATE ledger_accounts a SET balance = a.balance + net.amount
      FROM net WHERE a.id = net.account AND net.amount < 0
      RETURNING a.id)`,
    `cre AS (
      INSERT INTO ledger_accounts (id, kind, balance, allow_negative)
      SELECT net.account, net.kind, net.amount, net.kind = 'world' FROM net
      WHERE net.amount > 0 OR net.account NOT IN (SELECT id FROM upd)
      ON CONFLICT (id) DO UPDATE SET balance = ledger_accounts.balance + excluded.balance
      RETURNING id)`,
    `ins AS (
      INSERT INTO ledger_postings (transaction_id, account_id, amount)
      SELECT pp.txn_id, pp.account, pp.amount FROM pp JOIN txn ON txn.id = pp.txn_id
      RETURNING 1)`,
  ];
  if (spendWallet.length > 0) {
    // Spends and refunds of spend net per wallet and day: a row is changed once (by an upsert that the
    // daily-limit CHECK sees when the net is a spend, by a clamped decrease when it is a refund).
    ctes.push(
      `sp(wallet, day, amount, lim) AS (
        SELECT wallet, COALESCE(day::date, (now() AT TIME ZONE 'utc')::date), amount, lim
        FROM unnest(${p.add(spendWallet)}::text[], ${p.add(spendDay)}::text[], ${p.add(spendAmount)}::bigint[],
          ${p.add(spendLimit)}::bigint[]) AS s(wallet, day, amount, lim))`,
      `spn AS (SELECT wallet, day, sum(amount)::bigint AS amount, min(lim) AS lim FROM sp GROUP BY wallet, day)`,
      `spend AS (
        INSERT INTO daily_spend (wallet, day, spent, spend_limit)
        SELECT wallet, day, amount, lim FROM spn WHERE amount > 0
        ON CONFLICT (wallet, day) DO UPDATE
          SET spent = daily_spend.spent + excluded.spent, spend_limit = excluded.spend_limit
        RETURNING spent)`,
      `unspend AS (
        UPDATE daily_spend d SET spent = GREATEST(0, d.spent + spn.amount)
        FROM spn WHERE spn.amount < 0 AND d.wallet = spn.wallet AND d.day = spn.day
        RETURNING d.spent)`,
    );
  }
  // Rows of a kind together (kinds in name order), then the items' own CTEs.
  const kinds = new Map<string, { kind: RowsKind<unknown>; rows: unknown[] }>();
  for (const item of items) {
    const alongside = item.alongside;
    if (!alongside || typeof alongside === 'function') continue;
    const group = kinds.get(alongside.kind.name) ?? { kind: alongside.kind, rows: [] };
    group.rows.push(alongside.row);
    kinds.set(alongside.kind.name, group);
  }
  for (const [name, { kind, rows }] of [...kinds].sort(([a], [b]) => (a < b ? -1 : 1))) {
    ctes.push(...kind.ctes(p, rows, { name: (base) => `${base}_${name}` }));
  }
  let fixedText = true;
  items.forEach((item, index) => {
    if (typeof item.alongside !== 'function') return;
    fixedText = false;
    ctes.push(...item.alongside(p, { name: (base) => `${base}_b${index}` }));
  });
  // One durable post makes the whole batch's commit durable (it is one commit).
  const asyncCommit = items.every((item) => item.asyncCommit) ? `, ${ASYNC_COMMIT} AS async_commit` : '';
  return {
    sql: `WITH ${ctes.join(',\n')}\n    SELECT (SELECT count(*) FROM txn)::int AS applied${asyncCommit}`,
    params: p.values,
    fixedText,
  };
}

/** What the batchers of this process did: batch statements committed and the posts they carried (tests, benches). */
export const batchStats = { statements: 0, posts: 0, fallbacks: 0 };

type Pending = Queued<BatchItem, { applied: boolean; transactionId: string }>;

function isRetryable(error: unknown): boolean {
  const code = (error as { code?: string })?.code;
  return code === '40P01' || code === '40001';
}

/** Groups the posts submitted on one runner while statements are in flight (see the top of this file). */
export class LedgerBatcher {
  // Posts submitted in the same turn of the event loop go together; nothing waits when the database is idle.
  private readonly queue = new GroupQueue<BatchItem, { applied: boolean; transactionId: string }>(
    { maxInFlight: BATCH_MAX_IN_FLIGHT, maxItems: BATCH_MAX_ITEMS },
    (batch) => this.run(batch),
  );

  constructor(
    private readonly runner: Queryable,
    /** Posts one item alone (the single statement): a batch of one, and each item of a failed batch. */
    private readonly postOne: (item: BatchItem) => Promise<{ applied: boolean; transactionId: string }>,
  ) {}

  submit(item: BatchItem): Promise<{ applied: boolean; transactionId: string }> {
    return this.queue.submit(item);
  }

  private async run(batch: Pending[]): Promise<void> {
    if (batch.length === 1) {
      const [only] = batch;
      await this.postOne(only!.item).then(only!.resolve, only!.reject);
      return;
    }
    const { sql, params, fixedText } = batchStatement(batch.map((pending) => pending.item));
    for (let attempt = 0; ; attempt++) {
      try {
        // Without per-item CTEs the text is one of a few (which kinds and whether a spend): kept prepared.
        await this.runner.query(sql, params, { prepare: fixedText });
        batchStats.statements++;
        batchStats.posts += batch.length;
        for (const pending of batch) pending.resolve({ applied: true, transactionId: pending.item.id });
        return;
      } catch (error) {
        if (isRetryable(error) && attempt < 5) continue;
        if (isDatabaseUnavailable(error)) {
          for (const pending of batch) pending.reject(error);
          return;
        }
        batchStats.fallbacks++;
        break;
      }
    }
    // The statement rolled back. Its halves go again one after the other (most posts of a refused batch can
    // usually pay; one at a time, so that a refused batch does not take the pool's every connection), down to
    // single posts, each of which gets its own answer.
    if (batch.length > FALLBACK_SINGLES) {
      const half = Math.ceil(batch.length / 2);
      await this.run(batch.slice(0, half));
      await this.run(batch.slice(half));
      return;
    }
    for (const pending of batch) await this.postOne(pending.item).then(pending.resolve, pending.reject);
  }
}
