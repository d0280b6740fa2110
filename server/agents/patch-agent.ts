import { db } from '../core/db';
import { Prisma } from '../core/db/generated/client';
import type { Caller } from '../core/caller';
import { ApiError } from '../core/errors';
import { checkOutboundUrl } from '../net/check-url';
import { currentRuntime } from '../core/runtime';
import { requireAgent } from './find-agent';
import { assertInvokeSchema } from './invoke-schema';
import { priceChange } from './price';

export interface AgentPatch {
  agentName?: string;
  bio?: string;
  twitterHandle?: string | null;
  discordHandle?: string | null;
  telegramHandle?: string | null;
  priceClawPerCall?: bigint;
  maxSpendPerDay?: bigint | null;
  status?: 'active' | 'paused';
  isCallable?: boolean;
  invokeUrl?: string | null;
  invokeSchema?: Record<string, unknown> | null;
}

/** PATCH /api/v1/agents/{id}: the owner changes its agent. */
export async function patchAgent(caller: Caller, ref: string, patch: AgentPatch) {
  const agent = await requireAgent(ref);
  if (agent.ownerWallet !== caller.wallet) throw new ApiError('forbidden', 'Only the agent owner can change this agent');
  if (patch.status === 'active' && agent.adminPausedAt) {
    throw new ApiError('forbidden', 'An administrator paused this agent; only an administrator can resume it');
  }
  const { config } = currentRuntime();
  if (patch.invokeUrl) {
    checkOutboundUrl(
      patch.invokeUrl,
      { allowHttp: config.SERVICE_NETWORK === 'testnet' || config.ALLOW_PRIVATE_URLS, allowPrivate: config.ALLOW_PRIVATE_URLS },
      'invoke_url',
    );
  }
  if (patch.invokeSchema) assertInvokeSchema(patch.invokeSchema);
  // A raise waits out the notice period; a cut applies at once (./price.ts).
  const price =
    patch.priceClawPerCall === undefined
      ? {}
      : priceChange(agent, patch.priceClawPerCall, new Date(), config.PRICE_NOTICE_SECONDS);
  const updated = await db().agent.update({
    where: { id: agent.id },
    data: {
      name: patch.agentName,
      bio: patch.bio,
      twitterHandle: patch.twitterHandle,
      discordHandle: patch.discordHandle,
      telegramHandle: patch.telegramHandle,
      ...price,
      maxSpendPerDay: patch.maxSpendPerDay,
      status: patch.status,
      isCallable: patch.isCallable,
      invokeUrl: patch.invokeUrl,
      invokeSchema: patch.invokeSchema === null ? Prisma.DbNull : (patch.invokeSchema as Prisma.InputJsonValue | undefined),
    },
  });
  return updated;
}
