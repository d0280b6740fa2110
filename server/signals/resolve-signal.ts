import { getAddress } from 'viem';
import { holdAccount, PLATFORM_FEES, walletAccount } from '../credits/accounts';
import { post, type Posting } from '../credits/ledger';
import { withTransaction, type Tx } from '../core/db';
import type { Caller } from '../core/caller';
import { ApiError } from '../core/errors';
import { microToClaw } from '../core/money';
import { currentRuntime } from '../core/runtime';
import { accrueReferral } from '../referrals/accrue-referral';
import { resolvePayouts, type Outcome, type StakeInput } from './payouts';

// Postings per ledger transaction: a resolution with more payees is several balanced ledger
// transactions (each debits the escrow by what it pays), all in the one database transaction.
const POSTINGS_PER_TRANSACTION = 1_000;

export function isAdmin(wallet: string): boolean {
  const lower = wallet.toLowerCase();
  return currentRuntime().config.ADMIN_WALLETS.some((admin) => admin.toLowerCase() === lower);
}

/**
 * Settles an open signal inside `tx`: marks it resolved (the caller holds its row lock), records
 * each stake's payout and moves the whole escrow to the payees and the platform. Returns null when
 * the signal is not open any more.
 */
export async function settleSignal(signalId: string, outcome: Outcome, resolvedBy: string, tx: Tx) {
  const [signal] = await tx.sql.query<{ publisher_wallet: string; stake: string | bigint }>(
    `UPDATE signals SET status = 'resolved', outcome = $2, resolved_by = $3, resolved_at = now()
     WHERE id = $1 AND status = 'open' RETURNING publisher_wallet, stake`,
    [signalId, outcome, resolvedBy],
  );
  if (!signal) return null;
  const rows = await tx.sql.query<{ id: string; staker_wallet: string; stance: 'agree' | 'disagree'; amount: string | bigint }>(
    'SELECT id, staker_wallet, stance, amount FROM signal_stakes WHERE signal_id = $1 ORDER BY created_at, id',
    [signalId],
  );
  const stakes: StakeInput[] = rows.map((r) => ({
    id: r.id,
    wallet: getAddress(r.staker_wallet),
    stance: r.stance,
    amount: BigInt(r.amount),
  }));
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

  // The ledger: escrow out, payees and the fee in (one wallet holds one stake, so one posting each).
  const escrow = holdAccount('signal', signalId);
  const credits: Posting[] = [];
  if (result.publisherPayout > 0n) credits.push({ account: walletAccount(publisher), amount: result.publisherPayout });
  stakes.forEach((s, i) => {
    if (result.stakePayouts[i]! > 0n) credits.push({ account: walletAccount(s.wallet), amount: result.stakePayouts[i]! });
  });
  if (result.fee > 0n) credits.push({ account: PLATFORM_FEES, amount: result.fee });
  for (let start = 0; start < credits.length; start += POSTINGS_PER_TRANSACTION) {
    const chunk = credits.slice(start, start + POSTINGS_PER_TRANSACTION);
    const total = chunk.reduce((t, c) => t + c.amount, 0n);
    await post(
      {
        reason: `signal_${outcome}`,
        refType: 'signal',
        refId: signalId,
        postings: [{ account: escrow, amount: -total }, ...chunk],
      },
      tx.sql,
    );
  }
  await accrueReferral(publisher, result.fee, { type: 'signal', id: signalId }, tx.sql);

  const payouts = [
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
  return { resolved: true as const, signal_id: signalId, outcome, fee_claw: microToClaw(result.fee), payouts };
}

/**
 * POST /api/v1/signals/{id}/resolve: the publisher or an admin (403 for anyone else) resolves an
 * open signal (409 once resolved: a second resolution moves nothing). All of it is one database
 * transaction under the signal's row lock, so concurrent resolutions pay once.
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
      const [signal] = await tx.sql.query<{ publisher_wallet: string; status: string; outcome: string | null }>(
        'SELECT publisher_wallet, status, outcome FROM signals WHERE id = $1 FOR UPDATE',
        [signalId],
      );
      if (!signal) throw ApiError.notFound('Signal');
      if (signal.publisher_wallet.toLowerCase() !== caller.wallet.toLowerCase() && !isAdmin(caller.wallet)) {
        throw new ApiError('forbidden', 'Only the signal’s publisher or an admin can resolve it');
      }
      const settled = await settleSignal(signalId, outcome, caller.wallet, tx);
      if (!settled) {
        throw new ApiError('conflict', `The signal is already resolved (${signal.outcome})`, {
          status: signal.status,
          outcome: signal.outcome,
        });
      }
      if (alongside) await alongside(tx, settled);
      return settled;
    },
    { timeoutMs: 120_000 },
  );
}
