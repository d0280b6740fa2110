import { database } from '../core/db';
import { loadOneAgentMetrics } from '../trust/agent-metrics';
import { agentViewB } from './agent-views';
import { requireAgent } from '../agents/find-agent';

const RECENT_ACTIVITY = 20;
const WALLET_FIELDS = /wallet/i;

/** An event's data as a non-owner may see it: everything but wallets (who called whom stays private). */
function publicData(data: unknown): Record<string, unknown> {
  if (!data || typeof data !== 'object') return {};
  return Object.fromEntries(Object.entries(data as Record<string, unknown>).filter(([key]) => !WALLET_FIELDS.test(key)));
}

/**
 * GET /api/v1/agents/{id}: the family B record with its trust breakdown, recent events about it and
 * activity counts. Caller wallets and invoke_url appear only when the owner asks.
 */
export async function agentProfileB(ref: string, viewer: string | null) {
  const agent = await requireAgent(ref);
  const isOwner = viewer === agent.ownerWallet;
  const { sql } = database();
  const [metrics, activity, [counts]] = await Promise.all([
    loadOneAgentMetrics(agent, sql),
    sql.query<{ id: string | bigint; name: string; data: unknown; created_at: Date }>(
      // one index walk per field (events_*_agent_id_idx), newest first: O(page) for any agent
      `SELECT * FROM (
         (SELECT id, name, data, created_at FROM events WHERE data->>'agent_id' = $1 ORDER BY id DESC LIMIT ${RECENT_ACTIVITY})
         UNION
         (SELECT id, name, data, created_at FROM events WHERE data->>'target_agent_id' = $1 ORDER BY id DESC LIMIT ${RECENT_ACTIVITY})
         UNION
         (SELECT id, name, data, created_at FROM events WHERE data->>'caller_agent_id' = $1 ORDER BY id DESC LIMIT ${RECENT_ACTIVITY})
       ) e ORDER BY id DESC LIMIT ${RECENT_ACTIVITY}`,
      [agent.id],
      { prepare: true },
    ),
    sql.query<{ received: string | number; made: string | number }>(
      `SELECT
         (SELECT count(*) FROM invocations WHERE target_agent_id = $1 AND created_at > now() - interval '24 hours') AS received,
         (SELECT count(*) FROM invocations WHERE caller_agent_id = $1 AND created_at > now() - interval '24 hours') AS made`,
      [agent.id],
      { prepare: true },
    ),
  ]);
  return {
    // withMetrics brings the full trust breakdown (total, groups, components, formula).
    ...agentViewB(agent, metrics, { withMetrics: true, viewer }),
    recent_activity: activity.map((event) => ({
      id: `evt_${event.id}`,
      event: event.name,
      data: isOwner ? (event.data as Record<string, unknown>) : publicData(event.data),
      timestamp: new Date(event.created_at).toISOString(),
    })),
    activity_counts: {
      invocations_received_24h: Number(counts?.received ?? 0),
      invocations_made_24h: Number(counts?.made ?? 0),
    },
  };
}
