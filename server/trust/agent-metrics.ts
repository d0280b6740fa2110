import { agentFromRow } from '../agents/agent-row';
import type { Agent } from '../core/db/generated/client';
import type { Queryable } from '../core/db/sql-runner';
import { TRUST_COUNT_COLUMNS, TRUST_COUNT_JOINS, trustCountsFromRows, type TrustCountRow } from './trust-counts';
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

/**
 * What a view shows beside an agent, as columns of the statement that reads the agents aliased `a`
 * (with AGENT_METRIC_JOINS): maintained trust counts (trust-counts.ts) and the ERC-8004 link. A page
 * of agents is one statement with these; metricsFromRows() turns its rows into metrics.
 */
export const AGENT_METRIC_COLUMNS = `${TRUST_COUNT_COLUMNS},
  am_l.chain_id AS am_chain_id, am_l.registry AS am_registry, am_l.token_id AS am_token_id`;
export const AGENT_METRIC_JOINS = `${TRUST_COUNT_JOINS} LEFT JOIN erc8004_links am_l ON am_l.agent_id = a.id`;

export interface AgentMetricRow extends TrustCountRow {
  am_chain_id: number | null;
  am_registry: string | null;
  am_token_id: string | null;
}

/** Metrics from rows that selected AGENT_METRIC_COLUMNS (agents marked dirty are counted live: O(page)). */
export async function metricsFromRows(rows: AgentMetricRow[], runner: Queryable): Promise<Map<string, AgentMetrics>> {
  const counts = await trustCountsFromRows(rows, runner);
  const out = new Map<string, AgentMetrics>();
  for (const row of rows) {
    const found = counts.get(row.tc_id);
    if (!found) continue;
    const { inputs, endorsementCount, propagatedTrust } = found;
    out.set(row.tc_id, {
      trust: computeTrust(inputs),
      propagatedTrust,
      connectionsCount: inputs.connections,
      skillsCount: inputs.publishedSkills,
      endorsementCount,
      erc8004:
        row.am_token_id === null
          ? null
          : { agent_id: row.am_token_id, agent_registry: `eip155:${row.am_chain_id}:${row.am_registry}` },
    });
  }
  return out;
}

/** Metrics for a page of agents: maintained counts, never stale (trust-counts.ts), O(page), one statement. */
export async function loadAgentMetrics(agents: Pick<Agent, 'id'>[], runner: Queryable): Promise<Map<string, AgentMetrics>> {
  if (agents.length === 0) return new Map();
  const rows = await runner.query<AgentMetricRow>(
    `SELECT ${AGENT_METRIC_COLUMNS} FROM agents a ${AGENT_METRIC_JOINS} WHERE a.id = ANY($1::uuid[])`,
    [agents.map((agent) => agent.id)],
    { prepare: true },
  );
  return metricsFromRows(rows, runner);
}

export async function loadOneAgentMetrics(agent: Pick<Agent, 'id'>, runner: Queryable): Promise<AgentMetrics> {
  return (await loadAgentMetrics([agent], runner)).get(agent.id)!;
}

export interface AgentWithMetrics {
  agent: Agent;
  metrics: AgentMetrics;
}

/**
 * The agents and their metrics from the rows of one statement that selected agentColumns('a')
 * (agents/agent-row.ts) and AGENT_METRIC_COLUMNS, in the rows' order. Rows without an agent (a LEFT
 * JOIN that found none) are skipped.
 */
export async function agentsWithMetricsFromRows(
  rows: (AgentMetricRow & Record<string, unknown>)[],
  runner: Queryable,
): Promise<AgentWithMetrics[]> {
  const found = rows.filter((row) => row.tc_id !== null);
  const metrics = await metricsFromRows(found, runner);
  // an agent marked dirty and deleted before its live count is left out
  return found.flatMap((row) => {
    const loaded = metrics.get(row.tc_id);
    return loaded ? [{ agent: agentFromRow(row), metrics: loaded }] : [];
  });
}
