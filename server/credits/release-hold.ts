import { SqlParams, type Queryable } from '../core/db/sql-runner';
import { holdAccount } from './accounts';
import { post, type Posting } from './ledger';
import { alongsideCtes, SINGLE_SCOPE, type Alongside } from './ledger-batch';

// "The hold releases": one helper for every place that moves CLAW out of an escrow account
// (`hold:<type>:<id>`), the counterpart of callerPays(). A job's bounty to the winner and the fee
// (or back to the poster), a signal's escrow to its payees, a skill's stake back to its author, an
// invocation's fee to the target's owner (or back to the caller). The escrow is debited by exactly
// what the payees receive, in one ledger transaction, with whatever must happen at the same time.

/** Payees per ledger transaction: a release to more of them is several transactions. */
export const PAYEES_PER_TRANSACTION = 1_000;

export interface ReleaseHoldInput {
  /** The escrow: `hold:<type>:<id>`. */
  hold: { type: string; id: string };
  /**
   * Who receives what (micro-CLAW); zero amounts are left out (the ledger records no zero posting).
   * More than PAYEES_PER_TRANSACTION payees are paid in several balanced ledger transactions (each
   * debits the escrow by what it pays), all on `runner` (run it in a transaction to make them one).
   */
  to: Posting[];
  reason: string;
  /** What the ledger transaction refers to (no id for a batch, such as the weekly referral payout). */
  ref: { type: string; id?: string };
  /** A key already used makes this call a no-op that returns applied: false. */
  idempotencyKey?: string;
  /**
   * The release gives a charge back to the wallet that paid it (a refund): the amount released is
   * subtracted from that wallet's daily spend of the day it was charged.
   */
  refundsSpendOf?: { wallet: string; day: Date };
  /**
   * Data-modifying CTEs to run in the same statement as the release; they may refer to `txn`
   * (empty when an idempotency key made this a no-op). See post()'s `alongside` and `batch`.
   */
  alongside?: Alongside;
  /** Go in a batch with other posts (ledger.ts, `batch`). */
  batch?: boolean;
  /** Commit without waiting for the disk (ledger.ts, `asyncCommit`). */
  asyncCommit?: boolean;
}

/**
 * Moves what the payees receive out of the escrow, atomically with `alongside`. Nothing to release
 * (every amount 0) moves nothing and runs `alongside` alone. Throws 402 insufficient_credits when the
 * escrow holds less than that (already released), in which case nothing of `alongside` happens.
 */
export async function releaseHold(
  input: ReleaseHoldInput,
  runner: Queryable,
): Promise<{ applied: boolean; released: bigint; transactionId: string | null }> {
  if (input.to.some((payee) => payee.amount < 0n)) throw new Error('a release cannot pay a negative amount');
  const payees = input.to.filter((payee) => payee.amount > 0n);
  const released = payees.reduce((total, payee) => total + payee.amount, 0n);
  if (released === 0n) {
    const p = new SqlParams();
    const ctes = alongsideCtes(input.alongside, p, SINGLE_SCOPE);
    if (ctes.length > 0) await runner.query(`WITH txn AS (SELECT NULL::uuid AS id), ${ctes.join(',\n')} SELECT 1`, p.values);
    return { applied: true, released, transactionId: null };
  }
  const hold = holdAccount(input.hold.type, input.hold.id);
  if (payees.length > PAYEES_PER_TRANSACTION) {
    // Several transactions cannot share one idempotency key, one refund of spend or one `alongside`.
    if (input.idempotencyKey || input.refundsSpendOf || input.alongside) {
      throw new Error(`a release to more than ${PAYEES_PER_TRANSACTION} payees takes no idempotency key, refund or alongside`);
    }
    let transactionId: string | null = null;
    for (let start = 0; start < payees.length; start += PAYEES_PER_TRANSACTION) {
      const chunk = payees.slice(start, start + PAYEES_PER_TRANSACTION);
      const posted = await releaseHold({ ...input, to: chunk }, runner);
      transactionId ??= posted.transactionId;
    }
    return { applied: true, released, transactionId };
  }
  const { applied, transactionId } = await post(
    {
      reason: input.reason,
      refType: input.ref.type,
      refId: input.ref.id,
      idempotencyKey: input.idempotencyKey,
      postings: [{ account: hold, amount: -released }, ...payees],
      unspend: input.refundsSpendOf ? { ...input.refundsSpendOf, amount: released } : undefined,
      alongside: input.alongside,
      batch: input.batch,
      asyncCommit: input.asyncCommit,
    },
    runner,
  );
  return { applied, released, transactionId };
}
