import type { Caller } from '../core/caller';
import { withTransaction } from '../core/db';
import { ApiError } from '../core/errors';
import { microToClaw } from '../core/money';
import { walletAccount } from '../credits/accounts';
import { balanceOf } from '../credits/ledger';
import { MEMORY_LIMITS } from '../schemas/memory';
import { dailyCharge, entryView, LIVE, type Row } from './memory-views';
import { checkKey, ownedAgent, usedBytes } from './owned-memory';

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
