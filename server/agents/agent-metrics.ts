import type { Agent } from '../db/generated/client';
import type { Queryable } from '../db/sql-runner';
import { loadTrustCounts } from '../trust/trust-counts';
import { computeTrust, type TrustBreakdown } from '../trust/trust-score';

export interface AgentMetrics {
  trust: TrustBreakdown;
  connectionsCount: number;
  skillsCount: number;
  endorsementCount: number;
}

/** Live metrics for a page of agents, computed on read so a score is never stale. */
export async function loadAgentMetrics(agents: Pick<Agent, 'id'>[], runner?: Queryable): Promise<Map<string, AgentMetrics>> {
  const counts = await loadTrustCounts(
    agents.map((agent) => agent.id),
    runner,
  );
  const out = new Map<string, AgentMetrics>();
  for (const [id, { inputs, endorsementCount }] of counts) {
    out.set(id, {
      trust: computeTrust(inputs),
      connectionsCount: inputs.connections,
      skillsCount: inputs.publishedSkills,
      endorsementCount,
    });
  }
  return out;
}

export async function loadOneAgentMetrics(agent: Pick<Agent, 'id'>, runner?: Queryable): Promise<AgentMetrics> {
  return (await loadAgentMetrics([agent], runner)).get(agent.id)!;
}
