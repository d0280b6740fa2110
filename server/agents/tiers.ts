import type { Address } from 'viem';
import { db } from '../core/db';
import type { Queryable } from '../core/db/sql-runner';
import { emit } from '../events/emit';

export const TIER_ORDER = ['none', 'entry', 'pro', 'enterprise'] as const;
export type Tier = (typeof TIER_ORDER)[number];

/** True when `tier` is `required` or above (spec: pro for skill upload, entry for live smart money). */
export function tierAtLeast(tier: Tier, required: Tier): boolean {
  return TIER_ORDER.indexOf(tier) >= TIER_ORDER.indexOf(required);
}

/**
 * A wallet's tier, the one every tier gate uses. Tiers come from platform-token holdings; the
 * chain layer keeps agents.tier fresh (cached at most 60 s) and this reads it.
 */
export async function tierOfWallet(wallet: Address): Promise<Tier> {
  const agents = await db().agent.findMany({ where: { ownerWallet: wallet }, select: { tier: true } });
  let best: Tier = 'none';
  for (const { tier } of agents) if (tierAtLeast(tier as Tier, best)) best = tier as Tier;
  return best;
}

/**
 * Sets an agent's tier (the chain layer calls this when holdings change) and, when it changed,
 * emits agent.tier_upgraded in the same transaction: pass the transaction's runner. Any move
 * counts (up or down; the payload says which). Returns whether the tier changed.
 */
export async function setAgentTier(agentId: string, tier: Tier, runner: Queryable): Promise<boolean> {
  const rows = await runner.query<{ owner_wallet: string; handle: string; previous: string }>(
    `UPDATE agents a SET tier = $2, updated_at = now()
     FROM (SELECT id, tier AS previous FROM agents WHERE id = $1::uuid FOR UPDATE) old
     WHERE a.id = old.id AND old.previous <> $2
     RETURNING a.owner_wallet, a.handle, old.previous`,
    [agentId, tier],
  );
  const row = rows[0];
  if (!row) return false;
  const previous = row.previous as Tier;
  await emit(
    'agent.tier_upgraded',
    {
      agent_id: agentId,
      handle: row.handle,
      wallet_address: row.owner_wallet,
      previous_tier: previous,
      tier,
      direction: tierAtLeast(tier, previous) ? 'up' : 'down',
      changed_at: new Date().toISOString(),
    },
    runner,
  );
  return true;
}
