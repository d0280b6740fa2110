import type { Agent } from '../db/generated/client';
import { microToClaw } from '../credits/money';
import { loadAgentMetrics, type AgentMetrics } from './agent-metrics';

// The two published shapes of one agent record.

/** Family A Agent. */
export function agentViewA(agent: Agent, metrics: AgentMetrics, options: { withMetrics?: boolean } = {}) {
  return {
    id: agent.id,
    wallet_address: agent.ownerWallet,
    handle: agent.handle,
    name: agent.name,
    bio: agent.bio,
    avatar_url: agent.avatarUrl,
    tier: agent.tier,
    trust_score: metrics.trust.total,
    connections_count: metrics.connectionsCount,
    skills_count: metrics.skillsCount,
    created_at: agent.createdAt.toISOString(),
    social_handles: {
      twitter: agent.twitterHandle,
      discord: agent.discordHandle,
      telegram: agent.telegramHandle,
    },
    status: agent.status,
    ...(options.withMetrics ? { endorsement_count: metrics.endorsementCount, trust: metrics.trust } : {}),
  };
}

/** Family B agent. */
export function agentViewB(agent: Agent, metrics: AgentMetrics, options: { withMetrics?: boolean } = {}) {
  return {
    agent_id: agent.id,
    agent_name: agent.name,
    handle: agent.handle,
    owner_wallet: agent.ownerWallet,
    agent_pubkey: agent.agentPubkey,
    scopes: agent.scopes,
    status: agent.status,
    created: agent.createdAt.toISOString(),
    bio: agent.bio,
    avatar_url: agent.avatarUrl,
    twitter_handle: agent.twitterHandle,
    discord_handle: agent.discordHandle,
    telegram_handle: agent.telegramHandle,
    is_callable: agent.isCallable,
    invoke_url: agent.invokeUrl,
    invoke_schema: agent.invokeSchema,
    price_claw_per_call: microToClaw(agent.priceClawPerCall),
    max_spend_claw_per_day: agent.maxSpendPerDay === null ? null : microToClaw(agent.maxSpendPerDay),
    metadata: agent.metadata,
    tier: agent.tier,
    trust_score: metrics.trust.total,
    ...(options.withMetrics
      ? {
          endorsement_count: metrics.endorsementCount,
          connections_count: metrics.connectionsCount,
          skills_count: metrics.skillsCount,
          trust: metrics.trust,
        }
      : {}),
  };
}

export type AgentViewA = ReturnType<typeof agentViewA>;
export type AgentViewB = ReturnType<typeof agentViewB>;

/** Family A views of a page of agents, with live metrics. */
export async function presentAgentsA(agents: Agent[], options: { withMetrics?: boolean } = {}): Promise<AgentViewA[]> {
  const metrics = await loadAgentMetrics(agents);
  return agents.map((agent) => agentViewA(agent, metrics.get(agent.id)!, options));
}

/** Family B views of a page of agents, with live metrics. */
export async function presentAgentsB(agents: Agent[], options: { withMetrics?: boolean } = {}): Promise<AgentViewB[]> {
  const metrics = await loadAgentMetrics(agents);
  return agents.map((agent) => agentViewB(agent, metrics.get(agent.id)!, options));
}
