import type { Agent } from '../core/db/generated/client';
import type { Queryable } from '../core/db/sql-runner';
import { loadTrustCounts } from './trust-counts';
import { computeTrust, type TrustBreakdown } from './trust-score';

export interface AgentMetrics {
  trust: TrustBreakdown;
  /** The Sybil-resistant score beside the spec's (propagated-trust.ts), 0-100. */
  propagatedTrust: number;
  connectionsCount: number;
  skillsCount: number;
  endorsementCount: number;
}

/** Metrics for a page of agents: maintained counts, never stale (trust-counts.ts), O(page). */
export async function loadAgentMetrics(agents: Pick<Agent, 'id'>[], runner: Queryable): Promise<Map<string, AgentMetrics>> {
  const counts = await loadTrustCounts(
    agents.map((agent) => agent.id),
    runner,
  );
  const out = new Map<string, AgentMetrics>();
  for (const [id, { inputs, endorsementCount, propagatedTrust }] of counts) {
    out.set(id, {
      trust: computeTrust(inputs),
      propagatedTrust,
      connectionsCount: inputs.connections,
      skillsCount: inputs.publishedSkills,
      endorsementCount,
    });
  }
  return out;
}

export async function loadOneAgentMetrics(agent: Pick<Agent, 'id'>, runner: Queryable): Promise<AgentMetrics> {
  return (await loadAgentMetrics([agent], runner)).get(agent.id)!;
}
