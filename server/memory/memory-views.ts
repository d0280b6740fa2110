import { MICRO_PER_CLAW, microToClaw } from '../core/money';
import { MEMORY_LIMITS } from '../schemas/memory';

// Per-agent memory: the agent's owner only. Entries past expires_at are invisible at once and
// deleted on the next read of the key (and by the hourly job). Storage beyond the free 10 KB costs
// 1 CLAW per started KB per day, charged by a daily job; a write that would take the agent past what
// its owner can pay for one day is refused with 402.

const KB = 1024;
export const LIVE = '(expires_at IS NULL OR expires_at > now())';

/** CLAW (micro) per day for `bytes` stored. */
export function dailyCharge(bytes: number): { billableKb: number; micro: bigint } {
  const billableKb = Math.max(0, Math.ceil((bytes - MEMORY_LIMITS.freeBytes) / KB));
  return { billableKb, micro: BigInt(billableKb) * MICRO_PER_CLAW };
}

export function usageView(bytes: number) {
  const { billableKb, micro } = dailyCharge(bytes);
  return {
    used_bytes: bytes,
    free_bytes: MEMORY_LIMITS.freeBytes,
    max_bytes: MEMORY_LIMITS.maxBytes,
    billable_kb: billableKb,
    daily_charge_claw: microToClaw(micro),
  };
}

export interface Row {
  agent_id: string;
  key: string;
  value: unknown;
  size_bytes: number;
  expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export function entryView(row: Row) {
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
