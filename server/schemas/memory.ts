import { z } from '@hono/zod-openapi';
import { clawOut, timestamp } from './common';

// Per-agent key/value memory (spec: Memory entry; Limits: 10 KB free, then 1 CLAW per KB per day).

export const MEMORY_LIMITS = {
  /** Longest key in characters (413 above). */
  keyChars: 256,
  /** Largest value, serialized as JSON (413 above). */
  valueBytes: 64 * 1024,
  /** Stored bytes (keys + values) free of charge. */
  freeBytes: 10 * 1024,
  /** Hard cap of stored bytes per agent (413 above). */
  maxBytes: 1024 * 1024,
  /** Most keys per agent (413 above). */
  maxKeys: 1000,
  /** Longest expires_in_seconds: one year. */
  maxTtlSeconds: 365 * 24 * 3600,
} as const;

export const KEY_PATTERN = /^[A-Za-z0-9._:@~-]+$/;

const ttl = z.number().int().min(1).max(MEMORY_LIMITS.maxTtlSeconds).optional();
const anyJson = z.unknown().openapi({ description: 'Any JSON value' });

export const memoryParams = z.object({ id: z.string().min(1).max(64) });
export const memoryKeyParams = z.object({
  id: z.string().min(1).max(64),
  key: z
    .string()
    .min(1)
    .max(4096)
    .openapi({ description: `1-${MEMORY_LIMITS.keyChars} characters of A-Z a-z 0-9 . _ : @ ~ -` }),
});

export const memoryWriteBody = z
  .object({
    key: z.string().min(1).max(4096),
    value: anyJson,
    expires_in_seconds: ttl,
  })
  .openapi('MemoryWrite');

export const memoryPutBody = z.object({ value: anyJson, expires_in_seconds: ttl }).openapi('MemoryPut');

export const memoryEntry = z
  .strictObject({
    agent_id: z.uuid(),
    key: z.string(),
    value: anyJson,
    size_bytes: z.number().int(),
    expires_at: timestamp.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .openapi('MemoryEntry');

export const memoryUsage = z
  .strictObject({
    used_bytes: z.number().int(),
    free_bytes: z.number().int(),
    max_bytes: z.number().int(),
    billable_kb: z.number().int(),
    daily_charge_claw: clawOut,
  })
  .openapi('MemoryUsage');

export const memoryList = z
  .strictObject({
    agent_id: z.uuid(),
    keys: z.array(
      z.strictObject({ key: z.string(), size_bytes: z.number().int(), expires_at: timestamp.nullable(), updated_at: timestamp }),
    ),
    count: z.number().int(),
    usage: memoryUsage,
  })
  .openapi('MemoryList');

export const memoryDeleted = z
  .strictObject({ agent_id: z.uuid(), key: z.string(), deleted: z.literal(true) })
  .openapi('MemoryDeleted');

export const memoryCleared = z.strictObject({ agent_id: z.uuid(), cleared: z.number().int() }).openapi('MemoryCleared');
