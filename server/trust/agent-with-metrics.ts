import { agentFromRow, agentJson } from '../agents/agent-row';
import type { Agent } from '../core/db/generated/client';
import type { ReadPart } from '../core/db/read-together';
import {
  AGENT_METRIC_COLUMNS,
  AGENT_METRIC_JOINS,
  metricsFromRows,
  type AgentMetricRow,
  type AgentMetrics,
} from './agent-metrics';

interface AgentWithMetricsJson {
  agent: Record<string, unknown>;
  metrics: AgentMetricRow;
}

/**
 * An agent and its metrics (as loadAgentMetrics() gives them) as a part of a combined read: the row, its
 * maintained trust counts and its ERC-8004 link in the one statement; an agent marked dirty is counted live
 * (a second statement, until the refresh job folds the mark in). Null when there is no such agent.
 */
export function agentWithMetricsPart(agentId: string | null): ReadPart<{ agent: Agent; metrics: AgentMetrics } | null> {
  return {
    sql: (p) => `SELECT json_build_object('agent', ${agentJson('a')}, 'metrics', to_json(m))
       FROM agents a ${AGENT_METRIC_JOINS}, LATERAL (SELECT ${AGENT_METRIC_COLUMNS}) m
       WHERE a.id = ${p.add(agentId)}::uuid`,
    read: async (value, runner) => {
      if (value === null) return null;
      const { agent, metrics } = value as AgentWithMetricsJson;
      return { agent: agentFromRow(agent), metrics: (await metricsFromRows([metrics], runner)).get(metrics.tc_id)! };
    },
  };
}
