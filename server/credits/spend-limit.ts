import { db } from '../db';
import type { Caller } from '../http/caller';

/**
 * The daily limit that applies to a caller's debits: the stricter of the credential's
 * (max_spend_claw_per_day at sign-in) and the agent's (set by POST or PATCH on the agent).
 * null means no limit.
 */
export async function effectiveDailyLimit(caller: Caller): Promise<bigint | null> {
  const agent = caller.agentId
    ? await db().agent.findUnique({ where: { id: caller.agentId }, select: { maxSpendPerDay: true } })
    : null;
  const limits = [caller.maxSpendPerDay, agent?.maxSpendPerDay ?? null].filter((v): v is bigint => v !== null);
  return limits.length ? limits.reduce((a, b) => (a < b ? a : b)) : null;
}
