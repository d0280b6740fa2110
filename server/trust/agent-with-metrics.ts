import { agentFromJson, agentJsonSql, type AgentJson } from '../agents/agent-record';
import type { Agent } from '../core/db/generated/client';
import type { ReadPart } from '../core/db/read-together';
import { metricsFrom, type AgentMetrics, type Erc8004LinkRow } from './agent-metrics';
import { TRUST_COUNT_COLUMNS, trustCountsOf, type TrustCountRow } from './trust-counts';

interface AgentWithMetricsJson {
  agent: AgentJson;
  counts: TrustCountRow;
  link: Erc8004LinkRow | null;
}

/**
 * An agent and its metrics (as loadAgentMetrics() gives them) as a part of a combined read: the row, its
 * maintained trust counts and its ERC-8004 link in the one statement; an agent marked dirty is counted live
 * (a second statement, until the refresh job folds the mark in). Null when there is no such agent.
 */
export function agentWithMetricsPart(agentId: string | null): ReadPart<{ agent: Agent; metrics: AgentMetrics } | null> {
  return {
    sql: (p) => `SELECT json_build_object('agent', ${agentJsonSql('a')}, 'counts', to_json(c),
         'link', (SELECT json_build_object('chain_id', l.chain_id, 'registry', l.registry, 'token_id', l.token_id)
                  FROM erc8004_links l WHERE l.agent_id = a.id))
       FROM agents a LEFT JOIN agent_stats s ON s.agent_id = a.id, LATERAL (SELECT ${TRUST_COUNT_COLUMNS}) c
       WHERE a.id = ${p.add(agentId)}::uuid`,
    read: async (value, runner) => {
      if (value === null) return null;
      const { agent, counts, link } = value as AgentWithMetricsJson;
      const trust = await trustCountsOf([counts], runner);
      return { agent: agentFromJson(agent), metrics: metricsFrom(trust.get(agent.id)!, link) };
    },
  };
}
