import { SqlParams, type Queryable } from '../core/db/sql-runner';
import { walletAccount } from './accounts';
import { post, splitPostings, type Posting } from './ledger';
import { alongsideCtes, SINGLE_SCOPE, type Alongside, type CteScope } from './ledger-batch';
import { approvalAlreadyUsed, approvalUseCtes, checkSpendPolicy, isApprovalReuse, type Payee } from './spend-policy';

// "The caller pays": one helper for every place that moves CLAW out of a caller's wallet (an
// invocation's fee, a job's bounty, a signal's stake, a creation fee, a subscription, a skill).
// The debit counts against the payer's daily limit, a balance too small is 402 insufficient_credits,
// a day over the limit 402 daily_limit_exceeded, and whatever must happen with the payment (the
// job, the signal, the subscription) runs in the same statement through `alongside`. The paying
// credential's spend policy (spend-policy.ts: payees, per-call maximum, approval threshold) is checked
// here too, so every spend passes it; an approval a spend uses is spent in the payment's statement.

/** The paying wallet and its daily spend limit in micro-CLAW (null for none). */
export interface Payer {
  wallet: string;
  maxSpendPerDay: bigint | null;
  /** The credential the spend comes with (its spend policy applies); absent or null: none. */
  credentialId?: string | null;
}

/** Split the payment among shares by weight after a fee in basis points (see splitPostings). */
export interface Split {
  shares: { account: string; weight: bigint }[];
  fee: { account: string; bps: bigint };
  remainderTo: string;
}

export interface CallerPaysInput {
  caller: Payer;
  /** micro-CLAW; 0 moves nothing and runs `alongside` alone (with an empty `txn` row). */
  amount: bigint;
  /** The account credited with the whole amount, or a split of it. */
  to: string | Split;
  reason: string;
  /**
   * Whom the payment is for, for the spend policy's payee allowlist: the agent and/or wallet paid;
   * absent or null for the platform itself (a fee, a subscription, a bounty's escrow before a winner).
   */
  payee?: Payee | null;
  ref: { type: string; id: string };
  /** A key already used makes this call a no-op that returns applied: false. */
  idempotencyKey?: string;
  /** Whether the payment counts against the payer's daily limit (default true). */
  countsTowardDailyLimit?: boolean;
  /**
   * Data-modifying CTEs to run in the same statement as the payment; they may refer to `txn`
   * (empty when an idempotency key made this a no-op). See post()'s `alongside` and `batch`.
   */
  alongside?: Alongside;
  /** Go in a batch with other posts (ledger.ts, `batch`); a spend that uses an approval goes alone. */
  batch?: boolean;
}

/**
 * Moves `amount` from the caller's wallet to `to`, atomically with `alongside`. Throws 402
 * insufficient_credits or daily_limit_exceeded, in which case nothing of `alongside` happens.
 */
export async function callerPays(
  input: CallerPaysInput,
  runner: Queryable,
): Promise<{ applied: boolean; transactionId: string | null }> {
  if (input.amount < 0n) throw new Error('a payment cannot be negative');
  if (input.amount === 0n) {
    // Nothing to pay: the rest still happens, once, in one statement.
    const p = new SqlParams();
    const ctes = alongsideCtes(input.alongside, p, SINGLE_SCOPE);
    if (ctes.length > 0) await runner.query(`WITH txn AS (SELECT NULL::uuid AS id), ${ctes.join(',\n')} SELECT 1`, p.values);
    return { applied: true, transactionId: null };
  }
  const approvalId = await checkSpendPolicy(
    input.caller,
    { payee: input.payee ?? null, amount: input.amount, reason: input.reason },
    runner,
  );
  const from = walletAccount(input.caller.wallet);
  const postings: Posting[] =
    typeof input.to === 'string'
      ? [
          { account: from, amount: -input.amount },
          { account: input.to, amount: input.amount },
        ]
      : splitPostings(from, input.amount, input.to.shares, input.to.fee, input.to.remainderTo);
  const alongside = approvalId
    ? (p: SqlParams, scope: CteScope) => [...alongsideCtes(input.alongside, p, scope), ...approvalUseCtes(p, approvalId)]
    : input.alongside;
  try {
    return await post(
      {
        reason: input.reason,
        refType: input.ref.type,
        refId: input.ref.id,
        idempotencyKey: input.idempotencyKey,
        postings,
        spend:
          input.countsTowardDailyLimit === false
            ? undefined
            : { wallet: input.caller.wallet, amount: input.amount, limit: input.caller.maxSpendPerDay },
        alongside,
        // An approval's use names its CTEs as a single statement does.
        batch: input.batch && !approvalId,
      },
      runner,
    );
  } catch (error) {
    if (approvalId && isApprovalReuse(error)) throw approvalAlreadyUsed();
    throw error;
  }
}
