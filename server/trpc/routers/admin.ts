import { z } from 'zod';
import { setAgentPaused } from '../../admin/pause-agent';
import { listAdminActions } from '../../admin/audit-log';
import { platformStatsHistory } from '../../admin/stats-history';
import { listAgents } from '../../directory/list-agents';
import { adminRedeliver, listFailedDeliveries } from '../../admin/failed-deliveries';
import { approveSkill, listSkillsForModeration, rejectSkill, setSkillHidden } from '../../admin/moderate-skills';
import { adminResolveSignal, openSignals, previewResolution } from '../../admin/resolve-signals';
import { resolveBody } from '../../schemas/signals';
import { adminProcedure, router, sessionCaller } from '../init';

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
  openSignals: adminProcedure
    .input(z.object({ page: z.number().int().min(1).default(1) }))
    .query(({ input }) => openSignals(input.page)),
  /** The payouts the resolver would make now (server/signals/payouts.ts), before confirming. */
  previewResolution: adminProcedure
    .input(resolveBody.extend({ id: z.uuid() }))
    .query(({ input }) => previewResolution(input.id, input.outcome)),
  /** The service of POST /api/v1/signals/{id}/resolve, as the admin, audited. */
  resolveSignal: adminProcedure
    .input(resolveBody.extend({ id: z.uuid() }))
    .mutation(async ({ input, ctx }) => adminResolveSignal(await sessionCaller(ctx.wallet), input.id, input.outcome)),
  skills: adminProcedure
    .input(
      z.object({
        view: z.enum(['flagged', 'hidden', 'all']).default('flagged'),
        search: z.string().max(100).optional(),
        page: z.number().int().min(1).default(1),
      }),
    )
    .query(({ input }) => listSkillsForModeration(input)),
  hideSkill: adminProcedure
    .input(z.object({ id: z.uuid(), reason }))
    .mutation(({ input, ctx }) => setSkillHidden(ctx.wallet, input.id, true, input.reason ?? null)),
  unhideSkill: adminProcedure
    .input(z.object({ id: z.uuid(), reason }))
    .mutation(({ input, ctx }) => setSkillHidden(ctx.wallet, input.id, false, input.reason ?? null)),
  approveSkill: adminProcedure
    .input(z.object({ id: z.uuid(), reason }))
    .mutation(({ input, ctx }) => approveSkill(ctx.wallet, input.id, input.reason ?? null)),
  rejectSkill: adminProcedure
    .input(z.object({ id: z.uuid(), reason }))
    .mutation(({ input, ctx }) => rejectSkill(ctx.wallet, input.id, input.reason ?? null)),
  failedDeliveries: adminProcedure
    .input(z.object({ page: z.number().int().min(1).default(1) }))
    .query(({ input }) => listFailedDeliveries(input)),
  redeliver: adminProcedure
    .input(z.object({ deliveryId: z.uuid() }))
    .mutation(({ input, ctx }) => adminRedeliver(ctx.wallet, input.deliveryId)),
});
