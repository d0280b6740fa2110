import type { Agent } from '../core/db/generated/client';
import type { Queryable } from '../core/db/sql-runner';
import { loadTrustCounts, type TrustCounts } from './trust-counts';
import { computeTrust, type TrustBreakdown } from './trust-score';

export interface AgentMetrics {
  trust: TrustBreakdown;
  /** The Sybil-resistant score beside the spec's (propagated-trust.ts), 0-100. */
  propagatedTrust: number;
  connectionsCount: number;
  skillsCount: number;
  endorsementCount: number;
  /** The linked ERC-8004 identity (docs/erc8004.md), or null. */
  erc8004: { agent_id: string; agent_registry: string } | null;
}

/** An agent's erc8004_links row, as metricsFrom() reads it. */
export interface Erc8004LinkRow {
  chain_id: number;
  registry: string;
  token_id: string;
}

/** An agent's metrics from its trust counts and its ERC-8004 link. */
export function metricsFrom(
  { inputs, endorsementCount, propagatedTrust }: TrustCounts,
  link: Erc8004LinkRow | null,
): AgentMetrics {
  return {
    trust: computeTrust(inputs),
    propagatedTrust,
    connectionsCount: inputs.connections,
    skillsCount: inputs.publishedSkills,
    endorsementCount,
    erc8004: link ? { agent_id: link.token_id, agent_registry: `eip155:${link.chain_id}:${link.registry}` } : null,
  };
}

/** Metrics for a page of agents: maintained counts, never stale (trust-counts.ts), O(page). */
export async function loadAgentMetrics(agents: Pick<Agent, 'id'>[], runner: Queryable): Promise<Map<string, AgentMetrics>> {
  const ids = agents.map((agent) => agent.id);
  // two independent statements, in parallel: one round trip's wait instead of two
  const [counts, linked] = await Promise.all([
    loadTrustCounts(ids, runner),
    ids.length
      ? runner.query<Erc8004LinkRow & { agent_id: string }>(
          `SELECT agent_id, chain_id, registry, token_id FROM erc8004_links WHERE agent_id = ANY($1::uuid[])`,
          [ids],
        )
      : [],
  ]);
  const links = new Map(linked.map((row) => [row.agent_id, row]));
  return new Map([...counts].map(([id, agentCounts]) => [id, metricsFrom(agentCounts, links.get(id) ?? null)]));
}

export async function loadOneAgentMetrics(agent: Pick<Agent, 'id'>, runner: Queryable): Promise<AgentMetrics> {
  return (await loadAgentMetrics([agent], runner)).get(agent.id)!;
}
