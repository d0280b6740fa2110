import { getAddress, type Address } from 'viem';
import type { Caller } from '../core/caller';
import { database } from '../core/db';
import { ApiError } from '../core/errors';
import { microToClaw } from '../core/money';
import { listSignals } from '../signals/list-signals';
import { resolvePayouts, type Outcome, type StakeInput } from '../signals/payouts';
import { resolveSignal } from '../signals/resolve-signal';
import { recordAdminAction } from './audit-log';

// Admin console: resolving open signals. The preview runs the resolver's own pure rule
// (server/signals/payouts.ts) over the signal's current stakes; confirming calls the same service as
// POST /api/v1/signals/{id}/resolve, with the audit entry in its transaction.

export function openSignals(page: number) {
  return listSignals({ status: 'open', sort: 'newest', limit: 25, offset: (page - 1) * 25 });
}

/** Who would get what (and the fee) if the signal were resolved now with `outcome`. */
export async function previewResolution(signalId: string, outcome: Outcome) {
  const { sql } = database();
  const [signal] = await sql.query<{ publisher_wallet: string; stake: string | bigint; status: string; title: string }>(
    'SELECT publisher_wallet, stake, status, title FROM signals WHERE id = $1',
    [signalId],
  );
  if (!signal) throw ApiError.notFound('Signal');
  if (signal.status !== 'open') throw new ApiError('conflict', 'The signal is already resolved');
  const rows = await sql.query<{ id: string; staker_wallet: string; stance: 'agree' | 'disagree'; amount: string | bigint }>(
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
  const result = resolvePayouts(publisherStake, stakes, outcome);
  const totalStaked = stakes.reduce((total, s) => total + s.amount, publisherStake);
  return {
    signal_id: signalId,
    title: signal.title,
    outcome,
    total_staked_claw: microToClaw(totalStaked),
    fee_claw: microToClaw(result.fee),
    payouts: [
      {
        wallet: getAddress(signal.publisher_wallet),
        role: 'publisher' as const,
        staked_claw: microToClaw(publisherStake),
        payout_claw: microToClaw(result.publisherPayout),
      },
      ...stakes.map((s, i) => ({
        wallet: s.wallet as Address,
        role: s.stance,
        staked_claw: microToClaw(s.amount),
        payout_claw: microToClaw(result.stakePayouts[i]!),
      })),
    ],
  };
}

/** Resolves a signal as an admin (the REST endpoint's service), audited in the same transaction. */
export async function adminResolveSignal(admin: Caller, signalId: string, outcome: Outcome) {
  return resolveSignal(admin, signalId, outcome, async (tx, settled) => {
    await recordAdminAction(
      {
        adminWallet: admin.wallet,
        action: 'signal.resolve',
        targetType: 'signal',
        targetId: signalId,
        details: { outcome, fee_claw: settled.fee_claw, payees: settled.payouts.length },
      },
      tx.prisma,
    );
  });
}
