import type { z } from 'zod';
import { database } from '../core/db';
import type { agentA, agentB } from '../schemas/agent';
import type { Agent } from '../core/db/generated/client';
import { microToClaw } from '../core/money';
import { pendingPriceView } from '../agents/price';
import { loadAgentMetrics, type AgentMetrics } from '../trust/agent-metrics';

// The two published shapes of one agent record (server/schemas/agent.ts).

export type AgentViewA = z.infer<typeof agentA>;
export type AgentViewB = z.infer<typeof agentB>;
type Tier = AgentViewA['tier'];
type AgentStatus = AgentViewA['status'];

export interface ViewOptions {
  /** Include the endorsement count and the full trust breakdown. */
  withMetrics?: boolean;
  /** Who is looking: the owner also sees what only the owner may (invoke_url). */
  viewer?: string | null;
}

/** Family A Agent. */
export function agentViewA(agent: Agent, metrics: AgentMetrics, options: ViewOptions = {}): AgentViewA {
  return {
    id: agent.id,
    wallet_address: agent.ownerWallet,
    handle: agent.handle,
    name: agent.name,
    bio: agent.bio,
    avatar_url: agent.avatarUrl,
    tier: agent.tier as Tier,
    trust_score: metrics.trust.total,
    propagated_trust_score: metrics.propagatedTrust,
    connections_count: metrics.connectionsCount,
    skills_count: metrics.skillsCount,
    created_at: agent.createdAt.toISOString(),
    social_handles: {
      twitter: agent.twitterHandle,
      discord: agent.discordHandle,
      telegram: agent.telegramHandle,
    },
    status: agent.status as AgentStatus,
    erc8004: metrics.erc8004,
    ...(options.withMetrics ? { endorsement_count: metrics.endorsementCount, trust: metrics.trust } : {}),
  };
}

/** Family B agent. */
export function agentViewB(agent: Agent, metrics: AgentMetrics, options: ViewOptions = {}): AgentViewB {
  // The target's address is the owner's business: routed calls go through the router (signed).
  const isOwner = options.viewer !== undefined && options.viewer !== null && options.viewer === agent.ownerWallet;
  const now = new Date();
  return {
    agent_id: agent.id,
    agent_name: agent.name,
    handle: agent.handle,
    owner_wallet: agent.ownerWallet,
    agent_pubkey: agent.agentPubkey,
    scopes: agent.scopes,
    status: agent.status as AgentStatus,
    created: agent.createdAt.toISOString(),
    bio: agent.bio,
    avatar_url: agent.avatarUrl,
    twitter_handle: agent.twitterHandle,
    discord_handle: agent.discordHandle,
    telegram_handle: agent.telegramHandle,
    is_callable: agent.isCallable,
    ...(isOwner ? { invoke_url: agent.invokeUrl } : {}),
    invoke_schema: agent.invokeSchema as Record<string, unknown> | null,
    ...pendingPriceView(agent, now),
    max_spend_claw_per_day: agent.maxSpendPerDay === null ? null : microToClaw(agent.maxSpendPerDay),
    metadata: agent.metadata as Record<string, unknown>,
    tier: agent.tier as Tier,
    trust_score: metrics.trust.total,
    propagated_trust_score: metrics.propagatedTrust,
    erc8004: metrics.erc8004,
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

/** Views of a page of agents with live metrics (`metrics` when the page's statement read them already). */
async function presentAgents<View>(
  view: (agent: Agent, metrics: AgentMetrics, options: ViewOptions) => View,
  agents: Agent[],
  options: ViewOptions,
  metrics?: Map<string, AgentMetrics>,
): Promise<View[]> {
  const loaded = metrics ?? (await loadAgentMetrics(agents, database().sql));
  return agents.map((agent) => view(agent, loaded.get(agent.id)!, options));
}

/** Family A views of a page of agents (presentAgents). */
export const presentAgentsA = (agents: Agent[], options: ViewOptions = {}, metrics?: Map<string, AgentMetrics>) =>
  presentAgents(agentViewA, agents, options, metrics);

/** Family B views of a page of agents (presentAgents). */
export const presentAgentsB = (agents: Agent[], options: ViewOptions = {}, metrics?: Map<string, AgentMetrics>) =>
  presentAgents(agentViewB, agents, options, metrics);
