import { z } from 'zod';
import { setAgentPaused } from '../../admin/pause-agent';
import { listAdminActions } from '../../admin/audit-log';
import { platformStatsHistory } from '../../admin/stats-history';
import { listAgents } from '../../directory/list-agents';
import { adminProcedure, router } from '../init';

const reason = z.string().trim().max(500).optional();

export const adminRouter = router({
  agents: adminProcedure
    .input(z.object({ search: z.string().max(100).optional(), page: z.number().int().min(1).default(1) }))
    .query(async ({ input }) => {
      const { agents, total } = await listAgents({ search: input.search, limit: 25, offset: (input.page - 1) * 25 });
      return {
        total,
        agents: agents.map((agent) => ({
          id: agent.id,
          handle: agent.handle,
          name: agent.name,
          owner_wallet: agent.ownerWallet,
          status: agent.status as 'active' | 'paused',
          admin_paused_at: agent.adminPausedAt?.toISOString() ?? null,
        })),
      };
    }),
  pauseAgent: adminProcedure
    .input(z.object({ ref: z.string().min(1).max(64), reason }))
    .mutation(({ input, ctx }) => setAgentPaused(ctx.wallet, input.ref, true, input.reason ?? null)),
  unpauseAgent: adminProcedure
    .input(z.object({ ref: z.string().min(1).max(64), reason }))
    .mutation(({ input, ctx }) => setAgentPaused(ctx.wallet, input.ref, false, input.reason ?? null)),
  auditLog: adminProcedure
    .input(z.object({ before: z.string().regex(/^\d+$/).optional(), limit: z.number().int().min(1).max(100).default(50) }))
    .query(({ input }) => listAdminActions(input)),
  statsHistory: adminProcedure
    .input(z.object({ days: z.number().int().min(1).max(365).default(30) }))
    .query(({ input }) => platformStatsHistory(input.days)),
});
