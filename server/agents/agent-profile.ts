import { database } from '../db';
import { loadOneAgentMetrics } from './agent-metrics';
import { agentViewB } from './agent-views';
import { requireAgent } from './find-agent';

const RECENT_ACTIVITY = 20;

/** GET /api/v1/agents/{id}: the family B record with its trust breakdown and recent events about it. */
export async function agentProfileB(ref: string) {
  const agent = await requireAgent(ref);
  const metrics = await loadOneAgentMetrics(agent);
  const activity = await database().sql.query<{ id: string | bigint; name: string; data: unknown; created_at: Date }>(
    `SELECT id, name, data, created_at FROM events
     WHERE data->>'agent_id' = $1 OR data->>'target_agent_id' = $1 OR data->>'caller_agent_id' = $1
     ORDER BY id DESC LIMIT ${RECENT_ACTIVITY}`,
    [agent.id],
  );
  return {
    // withMetrics brings the full trust breakdown (total, groups, components, formula).
    ...agentViewB(agent, metrics, { withMetrics: true }),
    recent_activity: activity.map((event) => ({
      id: `evt_${event.id}`,
      event: event.name,
      data: event.data,
      timestamp: new Date(event.created_at).toISOString(),
    })),
  };
}
