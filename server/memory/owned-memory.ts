import { requireAgent } from '../agents/find-agent';
import type { Caller } from '../core/caller';
import type { Queryable } from '../core/db/sql-runner';
import { ApiError } from '../core/errors';
import { KEY_PATTERN, MEMORY_LIMITS } from '../schemas/memory';
import { LIVE } from './memory-views';

// What every memory operation checks first: the caller owns the agent, the key is well formed.

/** The agent, when the caller owns it: 404 unknown, 403 anyone else. */
export async function ownedAgent(caller: Caller, ref: string) {
  const agent = await requireAgent(ref);
  assertOwner(caller, agent);
  return agent;
}

/** 403 unless the caller owns the agent. */
export function assertOwner(caller: Caller, agent: { ownerWallet: string }): void {
  if (agent.ownerWallet !== caller.wallet) {
    throw new ApiError('forbidden', 'Only the agent’s owner can use its memory');
  }
}

export function checkKey(key: string): void {
  if (key.length > MEMORY_LIMITS.keyChars) {
    throw new ApiError('payload_too_large', `Memory keys are at most ${MEMORY_LIMITS.keyChars} characters`, {
      limit_chars: MEMORY_LIMITS.keyChars,
    });
  }
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError('invalid_request', 'Invalid memory key', { fields: { key: 'must use only A-Z a-z 0-9 . _ : @ ~ -' } });
  }
}

export async function usedBytes(
  agentId: string,
  runner: Queryable,
  exceptKey?: string,
): Promise<{ bytes: number; keys: number }> {
  const [row] = await runner.query<{ bytes: number; keys: number }>(
    `SELECT coalesce(sum(size_bytes), 0)::int AS bytes, count(*)::int AS keys FROM memory_entries
     WHERE agent_id = $1::uuid AND ${LIVE} AND key <> $2`,
    [agentId, exceptKey ?? ''],
  );
  return { bytes: Number(row?.bytes ?? 0), keys: Number(row?.keys ?? 0) };
}
