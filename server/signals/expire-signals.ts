import { database, withTransaction } from '../core/db';
import { settleSignal } from './resolve-signal';

/** Signals nobody resolved within this many days expire: every stake is refunded in full. */
export const SIGNAL_MAX_OPEN_DAYS = 90;

/**
 * Scheduled: stakes never stay in escrow for ever. An open signal (or a disputed one no admin
 * decided) older than 90 days is resolved as expired (resolved_by `system`). Safe on several instances: settleSignal only moves an open
 * signal, under its row lock.
 */
export async function expireStaleSignals(maxOpenDays = SIGNAL_MAX_OPEN_DAYS, batch = 20): Promise<number> {
  const due = await database().sql.query<{ id: string }>(
    `SELECT id FROM signals WHERE status IN ('open', 'disputed') AND created_at <= now() - make_interval(days => $1::int)
     ORDER BY created_at LIMIT ${Math.floor(batch)}`,
    [maxOpenDays],
  );
  let expired = 0;
  for (const { id } of due) {
    const settled = await withTransaction(
      async (tx) => {
        await tx.sql.query('SELECT id FROM signals WHERE id = $1 FOR UPDATE', [id]);
        return settleSignal(id, 'expired', 'system', tx);
      },
      { timeoutMs: 120_000 },
    );
    if (settled) expired++;
  }
  return expired;
}
