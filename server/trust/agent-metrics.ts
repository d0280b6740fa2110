import type { Agent } from '../core/db/generated/client';
import type { Queryable } from '../core/db/sql-runner';
import { propagatedTrust } from './propagated-trust';
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

/** Live metrics for a page of agents, computed on read so a score is never stale. */
export async function loadAgentMetrics(agents: Pick<Agent, 'id'>[], runner: Queryable): Promise<Map<string, AgentMetrics>> {
  const [counts, propagated] = await Promise.all([
    loadTrustCounts(
      agents.map((agent) => agent.id),
      runner,
    ),
    propagatedTrust(),
  ]);
  const out = new Map<string, AgentMetrics>();
  for (const [id, { inputs, endorsementCount }] of counts) {
    out.set(id, {
      trust: computeTrust(inputs),
      propagatedTrust: propagated.get(id) ?? 0,
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
