import { holdAccount, walletAccount } from '../credits/accounts';
import { balanceOf, InsufficientCreditsError } from '../credits/ledger';
import { releaseHold } from '../credits/release-hold';
import { database, db } from '../core/db';
import { log } from '../core/log';

/**
 * Refunds invocations left pending by a process that stopped between charging and settling.
 * The hold account's balance is the truth: whatever is still in escrow goes back to the caller,
 * so an invocation settled just before the crash is never refunded twice.
 */
export async function settleStaleInvocations(olderThanMs: number): Promise<number> {
  const stale = await db().invocation.findMany({
    where: { status: 'pending', createdAt: { lt: new Date(Date.now() - olderThanMs) } },
    take: 500,
  });
  for (const invocation of stale) {
    const held = await balanceOf(holdAccount('invocation', invocation.id), database().sql);
    if (held > 0n) {
      try {
        await releaseHold(
          {
            hold: { type: 'invocation', id: invocation.id },
            to: [{ account: walletAccount(invocation.callerWallet), amount: held }],
            reason: 'invocation_refund',
            ref: { type: 'invocation', id: invocation.id },
            refundsSpendOf: { wallet: invocation.callerWallet, day: invocation.createdAt },
          },
          database().sql,
        );
      } catch (error) {
        // Settled concurrently: nothing left to give back.
        if (!(error instanceof InsufficientCreditsError)) throw error;
      }
    }
    await db().invocation.updateMany({
      where: { id: invocation.id, status: 'pending' },
      data: { status: 'error', error: 'the router stopped before the call settled; refunded', completedAt: new Date() },
    });
    log.warn({ invocation_id: invocation.id, refunded_micro_claw: held.toString() }, 'settled a stale invocation');
  }
  return stale.length;
}
