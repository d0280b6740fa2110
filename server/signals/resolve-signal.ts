import { getAddress } from 'viem';
import { PLATFORM_FEES, walletAccount } from '../credits/accounts';
import { releaseHold } from '../credits/release-hold';
import { database, withTransaction, type Tx } from '../core/db';
import type { Queryable } from '../core/db/sql-runner';
import type { Caller } from '../core/caller';
import { ApiError } from '../core/errors';
import { microToClaw } from '../core/money';
import { currentRuntime } from '../core/runtime';
import { accrueReferral } from '../referrals/accrue-referral';
import { resolvePayouts, type Outcome, type StakeInput } from './payouts';

export function isAdmin(wallet: string): boolean {
  const lower = wallet.toLowerCase();
  return currentRuntime().config.ADMIN_WALLETS.some((admin) => admin.toLowerCase() === lower);
}

/** Each party's stake and payout, publisher first, in the resolution answer's shape. */
function payoutList(publisher: string, publisherStake: bigint, stakes: StakeInput[], result: ReturnType<typeof resolvePayouts>) {
  return [
    {
      wallet: publisher,
      role: 'publisher' as const,
      staked_claw: microToClaw(publisherStake),
      payout_claw: microToClaw(result.publisherPayout),
    },
    ...stakes.map((s, i) => ({
      wallet: s.wallet,
      role: s.stance,
      staked_claw: microToClaw(s.amount),
      payout_claw: microToClaw(result.stakePayouts[i]!),
    })),
  ];
}

/** A signal's stakes in the order payouts are computed (oldest first). */
async function loadStakes(signalId: string, runner: Queryable): Promise<StakeInput[]> {
  const rows = await runner.query<{ id: string; staker_wallet: string; stance: 'agree' | 'disagree'; amount: string | bigint }>(
    'SELECT id, staker_wallet, stance, amount FROM signal_stakes WHERE signal_id = $1 ORDER BY created_at, id',
    [signalId],
  );
  return rows.map((r) => ({ id: r.id, wallet: getAddress(r.staker_wallet), stance: r.stance, amount: BigInt(r.amount) }));
}

/**
 * Settles an unresolved signal (open, pending_resolution or disputed) inside `tx`: marks it resolved
 * (the caller holds its row lock), records each stake's payout and moves the whole escrow to the
 * payees and the platform. Returns null when the signal is resolved already.
 */
export async function settleSignal(signalId: string, outcome: Outcome, resolvedBy: string, tx: Tx) {
  const [signal] = await tx.sql.query<{ publisher_wallet: string; stake: string | bigint }>(
    `UPDATE signals SET status = 'resolved', outcome = $2, resolved_by = $3, resolved_at = now()
     WHERE id = $1 AND status IN ('open', 'pending_resolution', 'disputed') RETURNING publisher_wallet, stake`,
    [signalId, outcome, resolvedBy],
  );
  if (!signal) return null;
  const stakes = await loadStakes(signalId, tx.sql);
  const publisherStake = BigInt(signal.stake);
  const publisher = getAddress(signal.publisher_wallet);
  const result = resolvePayouts(publisherStake, stakes, outcome);

  await tx.sql.query(`UPDATE signals SET fee = $2::bigint WHERE id = $1`, [signalId, result.fee.toString()]);
  if (stakes.length) {
    await tx.sql.query(
      `UPDATE signal_stakes s SET payout = v.payout FROM unnest($1::uuid[], $2::bigint[]) AS v(id, payout) WHERE s.id = v.id`,
      [stakes.map((s) => s.id), result.stakePayouts.map((p) => p.toString())],
    );
  }

  // The ledger: escrow out, payees and the fee in (one wallet holds one stake, so one posting each;
  // a resolution with many payees is several ledger transactions in this one database transaction).
  await releaseHold(
    {
      hold: { type: 'signal', id: signalId },
      to: [
        { account: walletAccount(publisher), amount: result.publisherPayout },
        ...stakes.map((s, i) => ({ account: walletAccount(s.wallet), amount: result.stakePayouts[i]! })),
        { account: PLATFORM_FEES, amount: result.fee },
      ],
      reason: `signal_${outcome}`,
      ref: { type: 'signal', id: signalId },
    },
    tx.sql,
  );
  await accrueReferral(publisher, result.fee, { type: 'signal', id: signalId }, tx.sql);

  const payouts = payoutList(publisher, publisherStake, stakes, result);
  return {
    resolved: true,
    status: 'resolved' as SignalResolutionStatus,
    signal_id: signalId,
    outcome,
    fee_claw: microToClaw(result.fee),
    payouts,
    dispute_deadline: null as string | null,
  };
}

type SignalResolutionStatus = 'resolved' | 'pending_resolution';

/** The payouts `outcome` would make now, in the resolution answer's shape (nothing moves). */
export async function previewPayouts(signalId: string, outcome: Outcome, runner: Queryable) {
  const [signal] = await runner.query<{ publisher_wallet: string; stake: string | bigint }>(
    'SELECT publisher_wallet, stake FROM signals WHERE id = $1',
    [signalId],
  );
  if (!signal) throw ApiError.notFound('Signal');
  const stakes = await loadStakes(signalId, runner);
  const publisherStake = BigInt(signal.stake);
  const result = resolvePayouts(publisherStake, stakes, outcome);
  return {
    result,
    stakes,
    publisherStake,
    fee_claw: microToClaw(result.fee),
    payouts: payoutList(getAddress(signal.publisher_wallet), publisherStake, stakes, result),
  };
}

/**
 * POST /api/v1/signals/{id}/resolve (docs/spec-decisions.md, Signals). An admin resolves any unresolved
 * signal (open, pending_resolution or disputed) and it pays at once. The publisher, who may profit
 * from its own word (a second wallet of its own on the winning side), only **proposes** an outcome for
 * an open signal: the signal becomes `pending_resolution` for SIGNAL_DISPUTE_WINDOW_HOURS, the answer
 * says `resolved: false` with the payouts that will be made, and the scheduled finalize job pays them
 * once the window passes without a dispute (POST /api/v1/signals/{id}/dispute moves the decision to an
 * admin). Anyone else: 403. 409 once resolved or proposed. One transaction under the row lock.
 */
export async function resolveSignal(
  caller: Caller,
  signalId: string,
  outcome: Outcome,
  /** Runs in the same transaction once settled (the admin console writes its audit entry here). */
  alongside?: (tx: Tx, settled: NonNullable<Awaited<ReturnType<typeof settleSignal>>>) => Promise<void>,
) {
  return withTransaction(
    async (tx) => {
      const [signal] = await tx.sql.query<{
        publisher_wallet: string;
        status: string;
        outcome: string | null;
        proposed_outcome: string | null;
      }>('SELECT publisher_wallet, status, outcome, proposed_outcome FROM signals WHERE id = $1 FOR UPDATE', [signalId]);
      if (!signal) throw ApiError.notFound('Signal');
      const admin = isAdmin(caller.wallet);
      if (signal.publisher_wallet.toLowerCase() !== caller.wallet.toLowerCase() && !admin) {
        throw new ApiError('forbidden', 'Only the signal’s publisher or an admin can resolve it');
      }
      if (signal.status === 'resolved') {
        throw new ApiError('conflict', `The signal is already resolved (${signal.outcome})`, {
          status: signal.status,
          outcome: signal.outcome,
        });
      }
      if (!admin) {
        if (signal.status !== 'open') {
          throw new ApiError(
            'conflict',
            `The publisher already proposed ${signal.proposed_outcome}; the signal is ${signal.status}`,
            {
              status: signal.status,
              proposed_outcome: signal.proposed_outcome,
            },
          );
        }
        const hours = currentRuntime().config.SIGNAL_DISPUTE_WINDOW_HOURS;
        const [proposed] = await tx.sql.query<{ dispute_deadline: Date | string }>(
          `UPDATE signals SET status = 'pending_resolution', proposed_outcome = $2, proposed_at = now(),
             dispute_deadline = now() + make_interval(hours => $3::int)
           WHERE id = $1 RETURNING dispute_deadline`,
          [signalId, outcome, hours],
        );
        const preview = await previewPayouts(signalId, outcome, tx.sql);
        return {
          resolved: false,
          status: 'pending_resolution' as SignalResolutionStatus,
          signal_id: signalId,
          outcome,
          fee_claw: preview.fee_claw,
          payouts: preview.payouts,
          dispute_deadline: new Date(proposed!.dispute_deadline).toISOString(),
        };
      }
      const settled = await settleSignal(signalId, outcome, caller.wallet, tx);
      if (!settled) throw new ApiError('conflict', 'The signal is already resolved', { status: 'resolved' });
      if (alongside) await alongside(tx, settled);
      return settled;
    },
    { timeoutMs: 120_000 },
  );
}

/**
 * POST /api/v1/signals/{id}/dispute: a staker of the signal (403 for anyone else, the publisher
 * included) disputes the publisher's proposed outcome within the dispute window (409 when the signal
 * is not pending_resolution or the window has closed). The signal becomes `disputed`: nothing is paid
 * until an admin resolves it (the resolve endpoint or the admin console).
 */
export async function disputeSignal(caller: Caller, signalId: string) {
  return withTransaction(async (tx) => {
    const [signal] = await tx.sql.query<{
      status: string;
      proposed_outcome: string | null;
      dispute_deadline: Date | string | null;
      window_open: boolean | null;
    }>(
      `SELECT status, proposed_outcome, dispute_deadline, dispute_deadline > now() AS window_open
       FROM signals WHERE id = $1 FOR UPDATE`,
      [signalId],
    );
    if (!signal) throw ApiError.notFound('Signal');
    const [stake] = await tx.sql.query('SELECT 1 FROM signal_stakes WHERE signal_id = $1 AND lower(staker_wallet) = lower($2)', [
      signalId,
      caller.wallet,
    ]);
    if (!stake) throw new ApiError('forbidden', 'Only a wallet that staked on the signal can dispute its resolution');
    if (signal.status !== 'pending_resolution' || !signal.window_open) {
      const why =
        signal.status === 'pending_resolution'
          ? 'the dispute window has closed'
          : signal.status === 'open'
            ? 'no outcome was proposed'
            : `the signal is ${signal.status}`;
      throw new ApiError('conflict', `Cannot dispute: ${why}`, {
        status: signal.status,
        dispute_deadline: signal.dispute_deadline ? new Date(signal.dispute_deadline).toISOString() : null,
      });
    }
    const [disputed] = await tx.sql.query<{ disputed_at: Date | string }>(
      `UPDATE signals SET status = 'disputed', disputed_by = $2, disputed_at = now() WHERE id = $1 RETURNING disputed_at`,
      [signalId, caller.wallet],
    );
    return {
      signal_id: signalId,
      status: 'disputed' as const,
      proposed_outcome: signal.proposed_outcome as Outcome,
      disputed_by: caller.wallet,
      disputed_at: new Date(disputed!.disputed_at).toISOString(),
    };
  });
}

/**
 * Scheduled: a publisher's proposed outcome whose dispute window has passed without a dispute is
 * settled as proposed. Safe on several instances: each signal is re-checked under its row lock.
 */
export async function finalizeSignalResolutions(batch = 50): Promise<number> {
  const due = await database().sql.query<{ id: string }>(
    `SELECT id FROM signals WHERE status = 'pending_resolution' AND dispute_deadline <= now()
     ORDER BY dispute_deadline LIMIT ${Math.floor(batch)}`,
  );
  let settled = 0;
  for (const { id } of due) {
    const done = await withTransaction(
      async (tx) => {
        const [signal] = await tx.sql.query<{ proposed_outcome: Outcome; publisher_wallet: string }>(
          `SELECT proposed_outcome, publisher_wallet FROM signals
           WHERE id = $1 AND status = 'pending_resolution' AND dispute_deadline <= now() FOR UPDATE`,
          [id],
        );
        if (!signal) return null;
        return settleSignal(id, signal.proposed_outcome, signal.publisher_wallet, tx);
      },
      { timeoutMs: 120_000 },
    );
    if (done) settled++;
  }
  return settled;
}
