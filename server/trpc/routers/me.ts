import { z } from 'zod';
import { agentsOfWallet } from '../../agents/find-agent';
import patchAgentEndpoint from '../../api/v1/agents.[id].patch';
import erc8004LinkEndpoint from '../../api/v1/agents.[id].erc8004.link.post';
import erc8004UnlinkEndpoint from '../../api/v1/agents.[id].erc8004.link.delete';
import deleteMemoryEndpoint from '../../api/v1/agents.[id].memory.[key].delete';
import createWebhookEndpoint from '../../api/v1/webhooks.post';
import deleteWebhookEndpoint from '../../api/v1/webhooks.[id].delete';
import redeliverEndpoint from '../../api/v1/webhooks.[id].deliveries.[delivery_id].redeliver.post';
import mintApiKeyEndpoint from '../../api/a/mint-api-key.post';
import revokeApiKeyEndpoint from '../../api/a/revoke-api-key.post';
import patchApiKeyEndpoint from '../../api/v1/api-keys.[id].patch';
import approveSpendEndpoint from '../../api/v1/approvals.[id].approve.post';
import rejectSpendEndpoint from '../../api/v1/approvals.[id].reject.post';
import { listApprovals } from '../../credits/spend-approvals';
import type { spendPolicyInput } from '../../schemas/spend-policy';
import { presentAgentsB } from '../../directory/agent-views';
import { listApiKeys } from '../../auth/api-keys';
import { getCredits } from '../../credits/get-credits';
import { listX402Payments } from '../../x402/list-payments';
import { patchAgentBody } from '../../schemas/agent';
import { mintApiKeyBody, revokeApiKeyBody } from '../../schemas/api-key';
import { WALLET_SCOPES } from '../../core/scopes';
import { EVENT_MIN_TIER, EVENT_NAMES } from '../../events/emit';
import { listMemory } from '../../memory/list-memory';
import { readMemory } from '../../memory/read-memory';
import { webhookRef, deliveryRef } from '../../schemas/webhook';
import { listDeliveries } from '../../webhooks/list-deliveries';
import { listWebhooks } from '../../webhooks/list-webhooks';
import { router, sessionCaller, walletProcedure } from '../init';
import { procedureFrom } from '../procedure-from';

export const meRouter = router({
  /** The signed-in wallet's agents (oldest first: the first is the one family A sees). */
  agents: walletProcedure.query(async ({ ctx }) => {
    const agents = await agentsOfWallet(ctx.wallet);
    return presentAgentsB(agents, { withMetrics: true, viewer: ctx.wallet }).then((views) =>
      views.map((view, index) => ({ ...view, admin_paused: agents[index]!.adminPausedAt !== null })),
    );
  }),
  /** PATCH /api/v1/agents/{id}: edit profile and callable settings. */
  updateAgent: procedureFrom(patchAgentEndpoint, (input: { agentId: string; patch: z.input<typeof patchAgentBody> }) => ({
    params: { id: input.agentId },
    body: input.patch,
  })),
  /**
   * POST /api/v1/agents/{id}/erc8004/link: without erc8004_agent_id the unsigned register(agentURI)
   * transaction the page has the wallet send; with it, the link checked on chain (docs/erc8004.md).
   */
  linkErc8004: procedureFrom(
    erc8004LinkEndpoint,
    (input: { agentId: string; erc8004_agent_id?: string; agent_registry?: string }) => ({
      params: { id: input.agentId },
      body: { erc8004_agent_id: input.erc8004_agent_id, agent_registry: input.agent_registry },
    }),
  ),
  /** DELETE /api/v1/agents/{id}/erc8004/link. */
  unlinkErc8004: procedureFrom(erc8004UnlinkEndpoint, (input: { agentId: string }) => ({ params: { id: input.agentId } })),
  apiKeys: walletProcedure.query(async ({ ctx }) => ({
    ...(await listApiKeys(await sessionCaller(ctx.wallet))),
    scopes: WALLET_SCOPES,
  })),
  /** POST /api/mint-api-key: the secret is in this answer only (mint-once). */
  mintApiKey: procedureFrom(mintApiKeyEndpoint, (body: z.input<typeof mintApiKeyBody>) => ({ body })),
  /** POST /api/revoke-api-key. */
  revokeApiKey: procedureFrom(revokeApiKeyEndpoint, (body: z.input<typeof revokeApiKeyBody>) => ({ body })),
  /** PATCH /api/v1/api-keys/{id}: a key's spend policy (the session is the wallet: it may set any). */
  updateApiKey: procedureFrom(
    patchApiKeyEndpoint,
    (input: { keyId: string; spend_policy: z.input<typeof spendPolicyInput> }) => ({
      params: { id: input.keyId },
      body: { spend_policy: input.spend_policy },
    }),
  ),
  /** GET /api/v1/approvals: the wallet's spend approvals (pending first in the page). */
  spendApprovals: walletProcedure.query(({ ctx }) => listApprovals(ctx.wallet)),
  /** POST /api/v1/approvals/{id}/approve: the page has the wallet sign approve_message first. */
  approveSpend: procedureFrom(approveSpendEndpoint, (input: { id: string; message: string; signature: string }) => ({
    params: { id: input.id },
    body: { message: input.message, signature: input.signature },
  })),
  /** POST /api/v1/approvals/{id}/reject, signed likewise. */
  rejectSpend: procedureFrom(rejectSpendEndpoint, (input: { id: string; message: string; signature: string }) => ({
    params: { id: input.id },
    body: { message: input.message, signature: input.signature },
  })),
  credits: walletProcedure.query(async ({ ctx }) => getCredits(await sessionCaller(ctx.wallet))),
  // x402 payments (docs/payments.md) the wallet signed or that were made for it.
  x402Payments: walletProcedure.query(({ ctx }) => listX402Payments(ctx.wallet)),
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
