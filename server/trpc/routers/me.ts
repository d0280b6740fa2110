import { z } from 'zod';
import { db } from '../../core/db';
import patchAgentEndpoint from '../../api/v1/agents.[id].patch';
import deleteMemoryEndpoint from '../../api/v1/agents.[id].memory.[key].delete';
import createWebhookEndpoint from '../../api/v1/webhooks.post';
import deleteWebhookEndpoint from '../../api/v1/webhooks.[id].delete';
import redeliverEndpoint from '../../api/v1/webhooks.[id].deliveries.[delivery_id].redeliver.post';
import mintApiKeyEndpoint from '../../api/a/mint-api-key.post';
import revokeApiKeyEndpoint from '../../api/a/revoke-api-key.post';
import { presentAgentsB } from '../../directory/agent-views';
import { listApiKeys } from '../../auth/api-keys';
import { getCredits } from '../../credits/get-credits';
import { patchAgentBody } from '../../schemas/agent';
import { mintApiKeyBody, revokeApiKeyBody } from '../../schemas/api-key';
import { WALLET_SCOPES } from '../../core/scopes';
import { EVENT_MIN_TIER, EVENT_NAMES } from '../../events/emit';
import { listMemory, readMemory } from '../../memory/memory';
import { webhookRef, deliveryRef } from '../../schemas/webhook';
import { listDeliveries, listWebhooks } from '../../webhooks/manage-webhooks';
import { router, sessionCaller, walletProcedure } from '../init';
import { procedureFrom } from '../procedure-from';

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
  /** PATCH /api/v1/agents/{id}: edit profile and callable settings. */
  updateAgent: procedureFrom(patchAgentEndpoint, (input: { agentId: string; patch: z.input<typeof patchAgentBody> }) => ({
    params: { id: input.agentId },
    body: input.patch,
  })),
  apiKeys: walletProcedure.query(async ({ ctx }) => ({
    ...(await listApiKeys(await sessionCaller(ctx.wallet))),
    scopes: WALLET_SCOPES,
  })),
  /** POST /api/mint-api-key: the secret is in this answer only (mint-once). */
  mintApiKey: procedureFrom(mintApiKeyEndpoint, (body: z.input<typeof mintApiKeyBody>) => ({ body })),
  /** POST /api/revoke-api-key. */
  revokeApiKey: procedureFrom(revokeApiKeyEndpoint, (body: z.input<typeof revokeApiKeyBody>) => ({ body })),
  credits: walletProcedure.query(async ({ ctx }) => getCredits(await sessionCaller(ctx.wallet))),
  /** The signed-in wallet's webhooks, and the event names one can subscribe to (with their minimum tier). */
  webhooks: walletProcedure.query(async ({ ctx }) => ({
    ...(await listWebhooks(ctx.wallet)),
    events: EVENT_NAMES.map((name) => ({ name, min_tier: EVENT_MIN_TIER[name] })),
  })),
  /** POST /api/v1/webhooks; a generated secret is in this answer only. */
  createWebhook: procedureFrom(createWebhookEndpoint, (body: z.input<typeof createWebhookEndpoint.body>) => ({ body })),
  /** DELETE /api/v1/webhooks/{id}. */
  deleteWebhook: procedureFrom(deleteWebhookEndpoint, (params: z.input<typeof webhookRef>) => ({ params })),
  webhookDeliveries: walletProcedure
    .input(webhookRef.extend({ limit: z.number().int().min(1).max(100).default(50) }))
    .query(({ input, ctx }) => listDeliveries(ctx.wallet, input.id, input.limit)),
  /** POST /api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver. */
  redeliver: procedureFrom(redeliverEndpoint, (params: z.input<typeof deliveryRef>) => ({ params })),
  /** One of the wallet's agents' memory keys (no values) and usage: GET /api/v1/agents/{id}/memory. */
  memory: walletProcedure
    .input(z.object({ agentId: z.uuid() }))
    .query(async ({ input, ctx }) => listMemory(await sessionCaller(ctx.wallet), input.agentId)),
  memoryValue: walletProcedure
    .input(z.object({ agentId: z.uuid(), key: z.string().min(1).max(256) }))
    .query(async ({ input, ctx }) => readMemory(await sessionCaller(ctx.wallet), input.agentId, input.key)),
  /** DELETE /api/v1/agents/{id}/memory/{key}. */
  deleteMemoryKey: procedureFrom(deleteMemoryEndpoint, (input: { agentId: string; key: string }) => ({
    params: { id: input.agentId, key: input.key },
  })),
});
