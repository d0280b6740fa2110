import type { Address } from 'viem';
import { db } from '../core/db';
import { ApiError } from '../core/errors';
import { primaryAgentOf } from './find-agent';

export interface ProfileChanges {
  name?: string;
  bio?: string;
  avatarUrl?: string | null;
  socialHandles?: { twitter?: string | null; discord?: string | null; telegram?: string | null };
}

/** POST /api/update-profile: changes the wallet's agent (family A sees one agent per wallet). */
export async function updateProfile(wallet: Address, agentId: string | null, changes: ProfileChanges) {
  const agent = agentId
    ? await db().agent.findFirst({ where: { id: agentId, ownerWallet: wallet } })
    : await primaryAgentOf(wallet);
  if (!agent) throw new ApiError('not_found', 'This wallet has no registered agent');
  const updated = await db().agent.update({
    where: { id: agent.id },
    data: {
      name: changes.name,
      bio: changes.bio,
      avatarUrl: changes.avatarUrl,
      twitterHandle: changes.socialHandles?.twitter,
      discordHandle: changes.socialHandles?.discord,
      telegramHandle: changes.socialHandles?.telegram,
    },
  });
  return updated;
}
