import { randomUUID } from 'node:crypto';
import { holdAccount } from '../credits/accounts';
import { callerPays } from '../credits/caller-pays';
import { withTransaction } from '../core/db';
import type { Caller } from '../core/caller';
import { ApiError } from '../core/errors';
import { microToClaw } from '../core/money';

/**
 * POST /api/v1/signals/{id}/stake: back (agree) or bet against (disagree) an open signal. One stake
 * per wallet and signal: staking again on the same side adds to it; the other side is refused
 * (409, a stance never changes). The publisher's own stake is its position: it cannot stake on its
 * signal (403). A resolved signal takes no stakes (409). The signal row is locked, so a stake and a
 * resolution never interleave.
 */
export async function stakeSignal(caller: Caller, signalId: string, stance: 'agree' | 'disagree', amount: bigint) {
  return withTransaction(async (tx) => {
    const [signal] = await tx.sql.query<{ publisher_wallet: string; status: string }>(
      'SELECT publisher_wallet, status FROM signals WHERE id = $1 FOR UPDATE',
      [signalId],
    );
    if (!signal) throw ApiError.notFound('Signal');
    if (signal.publisher_wallet.toLowerCase() === caller.wallet.toLowerCase()) {
      throw new ApiError('forbidden', 'The publisher cannot stake on its own signal (its stake_claw is its position)');
    }
    if (signal.status !== 'open')
      throw new ApiError('conflict', `The signal is ${signal.status.replace('_', ' ')}; it takes no more stakes`, {
        status: signal.status,
      });
    const [row] = await tx.sql.query<{ id: string; amount: string | bigint; inserted: boolean }>(
      `INSERT INTO signal_stakes (id, signal_id, staker_wallet, stance, amount) VALUES ($1, $2, $3, $4, $5::bigint)
       ON CONFLICT (signal_id, staker_wallet) DO UPDATE SET amount = signal_stakes.amount + excluded.amount
         WHERE signal_stakes.stance = excluded.stance
       RETURNING id, amount, (xmax = 0) AS inserted`,
      [randomUUID(), signalId, caller.wallet, stance, amount.toString()],
    );
    if (!row) {
      throw new ApiError('conflict', 'You already staked on the other side of this signal; a stance cannot change', { stance });
    }
    await callerPays(
      {
        caller,
        amount,
        to: holdAccount('signal', signalId),
        reason: 'signal_stake',
        ref: { type: 'signal', id: signalId },
      },
      tx.sql,
    );
    const column = stance === 'agree' ? 'agree_total' : 'disagree_total';
    await tx.sql.query(`UPDATE signals SET ${column} = ${column} + $2::bigint, stake_count = stake_count + $3 WHERE id = $1`, [
      signalId,
      amount.toString(),
      row.inserted ? 1 : 0,
    ]);
    return {
      stake_id: row.id,
      signal_id: signalId,
      stance,
      amount_claw: microToClaw(amount),
      total_claw: microToClaw(BigInt(row.amount)),
    };
  });
}
