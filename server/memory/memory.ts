import { requireAgent } from '../agents/find-agent';
import type { Caller } from '../core/caller';
import { database, withTransaction } from '../core/db';
import type { Queryable } from '../core/db/sql-runner';
import { ApiError } from '../core/errors';
import { MICRO_PER_CLAW, microToClaw } from '../core/money';
import { PLATFORM_FEES, walletAccount } from '../credits/accounts';
import { callerPays } from '../credits/caller-pays';
import { balanceOf } from '../credits/ledger';
import { KEY_PATTERN, MEMORY_LIMITS } from '../schemas/memory';
import { log } from '../core/log';

// Per-agent memory: the agent's owner only. Entries past expires_at are invisible at once and
// deleted on the next read of the key (and by the hourly job). Storage beyond the free 10 KB costs
// 1 CLAW per started KB per day, charged by a daily job; a write that would take the agent past what
// its owner can pay for one day is refused with 402.

const KB = 1024;
const LIVE = '(expires_at IS NULL OR expires_at > now())';

/** CLAW (micro) per day for `bytes` stored. */
export function dailyCharge(bytes: number): { billableKb: number; micro: bigint } {
  const billableKb = Math.max(0, Math.ceil((bytes - MEMORY_LIMITS.freeBytes) / KB));
  return { billableKb, micro: BigInt(billableKb) * MICRO_PER_CLAW };
}

function usageView(bytes: number) {
  const { billableKb, micro } = dailyCharge(bytes);
  return {
    used_bytes: bytes,
    free_bytes: MEMORY_LIMITS.freeBytes,
    max_bytes: MEMORY_LIMITS.maxBytes,
    billable_kb: billableKb,
    daily_charge_claw: microToClaw(micro),
  };
}

/** The agent, when the caller owns it: 404 unknown, 403 anyone else. */
async function ownedAgent(caller: Caller, ref: string) {
  const agent = await requireAgent(ref);
  if (agent.ownerWallet !== caller.wallet) {
    throw new ApiError('forbidden', 'Only the agent’s owner can use its memory');
  }
  return agent;
}

function checkKey(key: string): void {
  if (key.length > MEMORY_LIMITS.keyChars) {
    throw new ApiError('payload_too_large', `Memory keys are at most ${MEMORY_LIMITS.keyChars} characters`, {
      limit_chars: MEMORY_LIMITS.keyChars,
    });
  }
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError('invalid_request', 'Invalid memory key', { fields: { key: 'must use only A-Z a-z 0-9 . _ : @ ~ -' } });
  }
}

interface Row {
  agent_id: string;
  key: string;
  value: unknown;
  size_bytes: number;
  expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function entryView(row: Row) {
  return {
    agent_id: row.agent_id,
    key: row.key,
    value: row.value,
    size_bytes: Number(row.size_bytes),
    expires_at: iso(row.expires_at),
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

async function usedBytes(agentId: string, runner: Queryable, exceptKey?: string): Promise<{ bytes: number; keys: number }> {
  const [row] = await runner.query<{ bytes: number; keys: number }>(
    `SELECT coalesce(sum(size_bytes), 0)::int AS bytes, count(*)::int AS keys FROM memory_entries
     WHERE agent_id = $1::uuid AND ${LIVE} AND key <> $2`,
    [agentId, exceptKey ?? ''],
  );
  return { bytes: Number(row?.bytes ?? 0), keys: Number(row?.keys ?? 0) };
}

/** GET /api/v1/agents/{id}/memory: the live keys (no values) and the usage. */
export async function listMemory(caller: Caller, ref: string) {
  const agent = await ownedAgent(caller, ref);
  const rows = await database().sql.query<Row>(
    `SELECT key, size_bytes, expires_at, updated_at FROM memory_entries WHERE agent_id = $1::uuid AND ${LIVE} ORDER BY key`,
    [agent.id],
  );
  const bytes = rows.reduce((total, row) => total + Number(row.size_bytes), 0);
  return {
    agent_id: agent.id,
    keys: rows.map((row) => ({
      key: row.key,
      size_bytes: Number(row.size_bytes),
      expires_at: iso(row.expires_at),
      updated_at: iso(row.updated_at)!,
    })),
    count: rows.length,
    usage: usageView(bytes),
  };
}

/** GET one key; an expired key is deleted and answers 404. */
export async function readMemory(caller: Caller, ref: string, key: string) {
  const agent = await ownedAgent(caller, ref);
  checkKey(key);
  const { sql } = database();
  await sql.query(`DELETE FROM memory_entries WHERE agent_id = $1::uuid AND key = $2 AND NOT ${LIVE}`, [agent.id, key]);
  const [row] = await sql.query<Row>(`SELECT * FROM memory_entries WHERE agent_id = $1::uuid AND key = $2`, [agent.id, key]);
  if (!row) throw ApiError.notFound('Memory key');
  return entryView(row);
}

export interface WriteInput {
  key: string;
  value: unknown;
  expiresInSeconds?: number;
}

/** POST (create or replace) and PUT: writes one key within the limits; 402 past what the owner can pay. */
export async function writeMemory(caller: Caller, ref: string, input: WriteInput) {
  const agent = await ownedAgent(caller, ref);
  checkKey(input.key);
  if (input.value === undefined) {
    throw new ApiError('invalid_request', 'value is required', { fields: { value: 'is required (any JSON, null included)' } });
  }
  const json = JSON.stringify(input.value);
  const valueBytes = Buffer.byteLength(json, 'utf8');
  if (valueBytes > MEMORY_LIMITS.valueBytes) {
    throw new ApiError('payload_too_large', `Memory values are at most ${MEMORY_LIMITS.valueBytes} bytes as JSON`, {
      limit_bytes: MEMORY_LIMITS.valueBytes,
      size_bytes: valueBytes,
    });
  }
  const size = valueBytes + Buffer.byteLength(input.key, 'utf8');
  const expiresAt = input.expiresInSeconds ? new Date(Date.now() + input.expiresInSeconds * 1000) : null;
  return withTransaction(async (tx) => {
    // One writer per agent at a time, so the quota check and the write cannot interleave.
    await tx.sql.query('SELECT id FROM agents WHERE id = $1::uuid FOR UPDATE', [agent.id]);
    const used = await usedBytes(agent.id, tx.sql, input.key);
    if (used.keys + 1 > MEMORY_LIMITS.maxKeys) {
      throw new ApiError('payload_too_large', `An agent holds at most ${MEMORY_LIMITS.maxKeys} memory keys`, {
        limit_keys: MEMORY_LIMITS.maxKeys,
      });
    }
    const total = used.bytes + size;
    if (total > MEMORY_LIMITS.maxBytes) {
      throw new ApiError('payload_too_large', `An agent’s memory holds at most ${MEMORY_LIMITS.maxBytes} bytes`, {
        limit_bytes: MEMORY_LIMITS.maxBytes,
        used_bytes: used.bytes,
        size_bytes: size,
      });
    }
    const charge = dailyCharge(total);
    if (charge.micro > 0n) {
      const balance = await balanceOf(walletAccount(agent.ownerWallet), tx.sql);
      if (balance < charge.micro) {
        throw new ApiError('insufficient_credits', 'Storing this needs CLAW for a day of storage beyond the free 10 KB', {
          required_claw: microToClaw(charge.micro),
          balance_claw: microToClaw(balance),
          used_bytes: total,
          free_bytes: MEMORY_LIMITS.freeBytes,
        });
      }
    }
    const [row] = await tx.sql.query<Row>(
      `INSERT INTO memory_entries (agent_id, key, value, size_bytes, expires_at)
       VALUES ($1::uuid, $2, $3::jsonb, $4, $5::timestamptz)
       ON CONFLICT (agent_id, key) DO UPDATE SET value = excluded.value, size_bytes = excluded.size_bytes,
         expires_at = excluded.expires_at, updated_at = now(),
         created_at = CASE WHEN ${LIVE.replace(/expires_at/g, 'memory_entries.expires_at')} THEN memory_entries.created_at ELSE now() END
       RETURNING *`,
      [agent.id, input.key, json, size, expiresAt],
    );
    return entryView(row!);
  });
}

/** DELETE one key (404 when it is absent or expired). */
export async function deleteMemory(caller: Caller, ref: string, key: string) {
  const agent = await ownedAgent(caller, ref);
  checkKey(key);
  const rows = await database().sql.query<{ live: boolean }>(
    `DELETE FROM memory_entries WHERE agent_id = $1::uuid AND key = $2 RETURNING ${LIVE} AS live`,
    [agent.id, key],
  );
  if (!rows[0]?.live) throw ApiError.notFound('Memory key');
  return { agent_id: agent.id, key, deleted: true as const };
}

/** DELETE all keys. */
export async function clearMemory(caller: Caller, ref: string) {
  const agent = await ownedAgent(caller, ref);
  const rows = await database().sql.query<{ live: boolean }>(
    `DELETE FROM memory_entries WHERE agent_id = $1::uuid RETURNING ${LIVE} AS live`,
    [agent.id],
  );
  return { agent_id: agent.id, cleared: rows.filter((row) => row.live).length };
}

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
