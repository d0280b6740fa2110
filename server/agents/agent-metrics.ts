import type { Agent } from '../db/generated/client';
import { computeTrust, monthsBetween, type Tier, type TrustBreakdown } from '../trust/trust-score';

export interface AgentMetrics {
  trust: TrustBreakdown;
  connectionsCount: number;
  skillsCount: number;
  endorsementCount: number;
}

type AgentLike = Pick<Agent, 'id' | 'tier' | 'verifiedAt' | 'createdAt'>;

/**
 * Live metrics for a page of agents, computed on read so a score is never stale. Counts that
 * belong to features not built yet (skills, attestations, the graph) are 0 until they land.
 */
export async function loadAgentMetrics(agents: AgentLike[]): Promise<Map<string, AgentMetrics>> {
  const now = new Date();
  const out = new Map<string, AgentMetrics>();
  for (const agent of agents) {
    const counts = { skills: 0, attestations: 0, connections: 0 };
    out.set(agent.id, {
      trust: computeTrust({
        verified: agent.verifiedAt !== null,
        tier: agent.tier as Tier,
        publishedSkills: counts.skills,
        receivedAttestations: counts.attestations,
        accountAgeMonths: monthsBetween(agent.createdAt, now),
        connections: counts.connections,
      }),
      connectionsCount: counts.connections,
      skillsCount: counts.skills,
      endorsementCount: counts.attestations,
    });
  }
  return out;
}

export async function loadOneAgentMetrics(agent: AgentLike): Promise<AgentMetrics> {
  return (await loadAgentMetrics([agent])).get(agent.id)!;
}
