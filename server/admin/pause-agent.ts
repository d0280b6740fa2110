import type { Address } from 'viem';
import { requireAgent } from '../agents/find-agent';
import { withTransaction } from '../core/db';
import { recordAdminAction } from './audit-log';

/**
 * Admin console: pauses an agent (status paused, not callable) or resumes it. While an administrator's
 * pause stands, the owner cannot set the agent active again (server/agents/patch-agent.ts). The change
 * and its audit entry commit together.
 */
export async function setAgentPaused(admin: Address, ref: string, paused: boolean, reason: string | null) {
  const agent = await requireAgent(ref);
  return withTransaction(async (tx) => {
    const updated = await tx.prisma.agent.update({
      where: { id: agent.id },
      data: paused ? { status: 'paused', adminPausedAt: new Date() } : { status: 'active', adminPausedAt: null },
    });
    await recordAdminAction(
      {
        adminWallet: admin,
        action: paused ? 'agent.pause' : 'agent.unpause',
        targetType: 'agent',
        targetId: agent.id,
        details: { handle: agent.handle, previous_status: agent.status, ...(reason ? { reason } : {}) },
      },
      tx.prisma,
    );
    return {
      id: updated.id,
      handle: updated.handle,
      status: updated.status as 'active' | 'paused',
      admin_paused_at: updated.adminPausedAt?.toISOString() ?? null,
    };
  });
}
