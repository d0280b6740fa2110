import { database } from '../core/db';
import { ApiError } from '../core/errors';
import { log } from '../core/log';
import { microToClaw } from '../core/money';
import { PLATFORM_FEES } from '../credits/accounts';
import { callerPays } from '../credits/caller-pays';
import { MEMORY_LIMITS } from '../schemas/memory';
import { dailyCharge } from './memory-views';

/**
 * The daily storage charge: every agent storing more than the free 10 KB pays 1 CLAW per started
 * KB beyond it for `day` (UTC), once (ledger idempotency key per agent and day), to the platform.
 * An owner who cannot pay (its balance, or its agent’s max_spend_claw_per_day) is skipped and logged: the data stays, and further writes past the free
 * quota are refused with 402 until the balance covers a day. Expired entries are purged first.
 */
export async function chargeMemoryStorage(day: Date = new Date()): Promise<{ charged: number; skipped: number }> {
  const { sql } = database();
  await sql.query(`DELETE FROM memory_entries WHERE expires_at IS NOT NULL AND expires_at <= now()`);
  const rows = await sql.query<{ agent_id: string; owner_wallet: string; limit: string | null; bytes: number }>(
    `SELECT m.agent_id, a.owner_wallet, a.max_spend_per_day::text AS limit, sum(m.size_bytes)::int AS bytes
     FROM memory_entries m JOIN agents a ON a.id = m.agent_id
     GROUP BY m.agent_id, a.owner_wallet, a.max_spend_per_day HAVING sum(m.size_bytes) > $1`,
    [MEMORY_LIMITS.freeBytes],
  );
  const date = day.toISOString().slice(0, 10);
  let charged = 0;
  let skipped = 0;
  for (const row of rows) {
    const { micro } = dailyCharge(Number(row.bytes));
    try {
      // The agent pays for its own memory: the charge counts against its daily limit as any spend does.
      const { applied } = await callerPays(
        {
          caller: { wallet: row.owner_wallet, maxSpendPerDay: row.limit === null ? null : BigInt(row.limit) },
          amount: micro,
          to: PLATFORM_FEES,
          reason: 'memory_storage',
          ref: { type: 'agent', id: row.agent_id },
          idempotencyKey: `memory-storage:${row.agent_id}:${date}`,
        },
        sql,
      );
      if (applied) charged++;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 402) throw error;
      skipped++;
      log.warn(
        { agent_id: row.agent_id, required_claw: microToClaw(micro), code: error.code },
        'memory storage charge skipped: insufficient credits or daily limit',
      );
    }
  }
  return { charged, skipped };
}
