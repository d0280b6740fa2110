import { z } from 'zod';
import { db } from '../../core/db';
import { patchAgent } from '../../agents/patch-agent';
import { presentAgentsB } from '../../directory/agent-views';
import { listApiKeys, mintApiKey, revokeApiKey } from '../../auth/api-keys';
import { getCredits } from '../../credits/get-credits';
import { patchAgentBody } from '../../schemas/agent';
import { mintApiKeyBody, revokeApiKeyBody } from '../../schemas/api-key';
import { WALLET_SCOPES } from '../../core/scopes';
import { EVENT_MIN_TIER, EVENT_NAMES } from '../../events/emit';
import { deleteMemory, listMemory, readMemory } from '../../memory/memory';
import { webhookBody, webhookRef, deliveryRef } from '../../schemas/webhook';
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, redeliver } from '../../webhooks/manage-webhooks';
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
    scopes: WALLET_SCOPES,
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
  /** The signed-in wallet's webhooks, and the event names one can subscribe to (with their minimum tier). */
  webhooks: walletProcedure.query(async ({ ctx }) => ({
    ...(await listWebhooks(ctx.wallet)),
    events: EVENT_NAMES.map((name) => ({ name, min_tier: EVENT_MIN_TIER[name] })),
  })),
  /** The same checks as POST /api/v1/webhooks; a generated secret is in this answer only. */
  createWebhook: walletProcedure
    .input(webhookBody.pick({ url: true, events: true, secret: true }))
    .mutation(async ({ input, ctx }) => {
      const created = await createWebhook(ctx.wallet, { url: input.url, events: input.events, secret: input.secret });
      return { ...created, secret: 'secret' in created ? created.secret : null };
    }),
  deleteWebhook: walletProcedure.input(webhookRef).mutation(async ({ input, ctx }) => {
    await deleteWebhook(ctx.wallet, input.id);
    return { deleted: true as const, id: input.id };
  }),
  webhookDeliveries: walletProcedure
    .input(webhookRef.extend({ limit: z.number().int().min(1).max(100).default(50) }))
    .query(({ input, ctx }) => listDeliveries(ctx.wallet, input.id, input.limit)),
  redeliver: walletProcedure.input(deliveryRef).mutation(({ input, ctx }) => redeliver(ctx.wallet, input.id, input.delivery_id)),
  /** One of the wallet's agents' memory keys (no values) and usage: GET /api/v1/agents/{id}/memory. */
  memory: walletProcedure
    .input(z.object({ agentId: z.uuid() }))
    .query(async ({ input, ctx }) => listMemory(await sessionCaller(ctx.wallet), input.agentId)),
  memoryValue: walletProcedure
    .input(z.object({ agentId: z.uuid(), key: z.string().min(1).max(256) }))
    .query(async ({ input, ctx }) => readMemory(await sessionCaller(ctx.wallet), input.agentId, input.key)),
  deleteMemoryKey: walletProcedure
    .input(z.object({ agentId: z.uuid(), key: z.string().min(1).max(256) }))
    .mutation(async ({ input, ctx }) => deleteMemory(await sessionCaller(ctx.wallet), input.agentId, input.key)),
});
