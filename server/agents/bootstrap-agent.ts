import { createHmac } from 'node:crypto';
import { db } from '../db';
import { payWelcomeGrant } from '../credits/welcome-grant';
import { microToClaw } from '../credits/money';
import type { Caller } from '../http/caller';
import { rateLimitedError } from '../http/rate-limit';
import { currentRuntime } from '../runtime';
import { AgentExistsError, createAgent } from './create-agent';
import { callerPubkey, defaultAgentName } from './upsert-agent';
import { credentialsChanged } from '../auth/credential-cache';

export interface BootstrapInput {
  agentName?: string;
  scopes?: string[];
  maxSpendPerDay?: bigint;
}

/**
 * POST /api/v1/agents/bootstrap: creates the caller's agent when absent and pays the one-time
 * welcome grant. spec: at most 3 new agents per IP per 24 h. The limit counts agents this IP
 * actually created (from the agents table, under a per-IP lock), so repeats and concurrent
 * calls for one agent never use it up.
 */
export async function bootstrapAgent(caller: Caller, input: BootstrapInput, ip: string) {
  const { config, limiter } = currentRuntime();
  const policy = limiter.policy('bootstrap');
  const ipHash = createHmac('sha256', config.AUTH_SECRET).update(ip).digest('hex');
  const key = { ownerWallet: caller.wallet, agentPubkey: callerPubkey(caller) };

  let outcome: { agent: Awaited<ReturnType<typeof createAgent>>; created: boolean };
  try {
    outcome = await db().$transaction(
      async (tx) => {
        await tx.$queryRawUnsafe('SELECT pg_advisory_xact_lock(hashtext($1))::text AS locked', `bootstrap:${ipHash}`);
        const existing = await tx.agent.findUnique({ where: { ownerWallet_agentPubkey: key } });
        if (existing) return { agent: existing, created: false };
        const recent = await tx.agent.findMany({
          where: { bootstrapIpHash: ipHash, createdAt: { gt: new Date(Date.now() - policy.windowMs) } },
          orderBy: { createdAt: 'asc' },
          select: { createdAt: true },
          take: policy.limit,
        });
        if (recent.length >= policy.limit) {
          const resetSeconds = Math.max(1, Math.ceil((recent[0]!.createdAt.getTime() + policy.windowMs - Date.now()) / 1000));
          throw rateLimitedError('bootstrap', { allowed: false, limit: policy.limit, remaining: 0, resetSeconds });
        }
        const agent = await createAgent(
          {
            ...key,
            name: input.agentName ?? defaultAgentName(caller),
            scopes: input.scopes ?? [...caller.scopes],
            maxSpendPerDay: input.maxSpendPerDay ?? caller.maxSpendPerDay,
            bootstrapIpHash: ipHash,
          },
          tx,
        );
        return { agent, created: true };
      },
      { timeout: 15_000, maxWait: 15_000 },
    );
  } catch (error) {
    // The same agent created at once from another IP: this call sees it as existing.
    if (!(error instanceof AgentExistsError)) throw error;
    outcome = { agent: await db().agent.findUniqueOrThrow({ where: { ownerWallet_agentPubkey: key } }), created: false };
  }
  if (outcome.created) credentialsChanged();
  const granted = await payWelcomeGrant(caller.wallet);
  return {
    agent_id: outcome.agent.id,
    agent_name: outcome.agent.name,
    owner_wallet: outcome.agent.ownerWallet,
    welcome_claw: microToClaw(granted),
    already_existed: !outcome.created,
  };
}
