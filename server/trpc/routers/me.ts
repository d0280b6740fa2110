import { z } from 'zod';
import { db } from '../../core/db';
import { patchAgent } from '../../agents/patch-agent';
import { presentAgentsB } from '../../directory/agent-views';
import { listApiKeys, mintApiKey, revokeApiKey } from '../../auth/api-keys';
import { getCredits } from '../../credits/get-credits';
import { patchAgentBody } from '../../schemas/agent';
import { mintApiKeyBody, revokeApiKeyBody } from '../../schemas/api-key';
import { ALL_SCOPES } from '../../core/scopes';
import { router, sessionCaller, walletProcedure } from '../init';

export const meRouter = router({
  /** The signed-in wallet's agents (oldest first: the first is the one family A sees). */
  agents: walletProcedure.query(async ({ ctx }) => {
    const agents = await db().agent.findMany({
      where: { ownerWallet: ctx.wallet },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    return presentAgentsB(agents, { withMetrics: true, viewer: ctx.wallet }).then((views) =>
      views.map((view, index) => ({ ...view, admin_paused: agents[index]!.adminPausedAt !== null })),
    );
  }),
  /** Edit profile and callable settings: the same checks as PATCH /api/v1/agents/{id}. */
  updateAgent: walletProcedure.input(z.object({ agentId: z.uuid(), patch: patchAgentBody })).mutation(async ({ input, ctx }) => {
    const p = input.patch;
    const updated = await patchAgent(await sessionCaller(ctx.wallet), input.agentId, {
      agentName: p.agent_name,
      bio: p.bio,
      twitterHandle: p.twitter_handle,
      discordHandle: p.discord_handle,
      telegramHandle: p.telegram_handle,
      priceClawPerCall: p.price_claw_per_call,
      maxSpendPerDay: p.max_spend_claw_per_day,
      status: p.status,
      isCallable: p.is_callable,
      invokeUrl: p.invoke_url,
      invokeSchema: p.invoke_schema,
    });
    return { agent_id: updated.id, updated_at: updated.updatedAt.toISOString() };
  }),
  apiKeys: walletProcedure.query(async ({ ctx }) => ({
    ...(await listApiKeys(await sessionCaller(ctx.wallet))),
    scopes: ALL_SCOPES,
  })),
  /** The secret is in this answer only (mint-once). */
  mintApiKey: walletProcedure
    .input(mintApiKeyBody)
    .mutation(async ({ input, ctx }) =>
      mintApiKey(await sessionCaller(ctx.wallet), { label: input.label, scopes: input.scopes }),
    ),
  revokeApiKey: walletProcedure
    .input(revokeApiKeyBody)
    .mutation(async ({ input, ctx }) => revokeApiKey(await sessionCaller(ctx.wallet), input.key_id)),
  credits: walletProcedure.query(async ({ ctx }) => getCredits(await sessionCaller(ctx.wallet))),
});
