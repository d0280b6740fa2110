import type { Address } from 'viem';
import { db } from '../core/db';

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
