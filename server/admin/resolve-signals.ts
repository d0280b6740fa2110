import type { Caller } from '../core/caller';
import { database } from '../core/db';
import { ApiError } from '../core/errors';
import { microToClaw } from '../core/money';
import { listSignals } from '../signals/list-signals';
import type { Outcome } from '../signals/payouts';
import { previewPayouts, resolveSignal } from '../signals/resolve-signal';
import { recordAdminAction } from './audit-log';

// Admin console: resolving open signals. The preview runs the resolver's own pure rule
// (server/signals/payouts.ts) over the signal's current stakes; confirming calls the same service as
// POST /api/v1/signals/{id}/resolve, with the audit entry in its transaction.

/** Unresolved signals: open, pending a publisher's proposal, or disputed (an admin decides). */
export function openSignals(page: number) {
  return listSignals({ status: 'unresolved', sort: 'newest', limit: 25, offset: (page - 1) * 25 });
}

/** Who would get what (and the fee) if the signal were resolved now with `outcome`. */
export async function previewResolution(signalId: string, outcome: Outcome) {
  const { sql } = database();
  const [signal] = await sql.query<{ stake: string | bigint; status: string; title: string }>(
    'SELECT stake, status, title FROM signals WHERE id = $1',
    [signalId],
  );
  if (!signal) throw ApiError.notFound('Signal');
  if (signal.status === 'resolved') throw new ApiError('conflict', 'The signal is already resolved');
  const preview = await previewPayouts(signalId, outcome, sql);
  const totalStaked = preview.stakes.reduce((total, s) => total + s.amount, preview.publisherStake);
  return {
    signal_id: signalId,
    title: signal.title,
    outcome,
    total_staked_claw: microToClaw(totalStaked),
    fee_claw: preview.fee_claw,
    payouts: preview.payouts,
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
