import { database } from '../db';
import type { Queryable } from '../credits/ledger';

// The one place that derives the connection graph. An edge points from the agent that acted
// (endorser, attester, caller) to the agent it acted on; a wallet acts through its oldest agent.
//   trust:        active endorsements 0.5 each, attestations +-weight/10 (neutral 0); clamped to 0-1
//   partnership:  successful invocations, 0.1 each up to 1
//   collaboration: completed jobs (when jobs exist)
// Only edges with strength > 0 exist; connections_count counts distinct neighbours over them.

const ACTOR_AGENT = (wallet: string) =>
  `(SELECT id FROM agents WHERE owner_wallet = ${wallet} ORDER BY created_at ASC, id ASC LIMIT 1)`;

/** Recomputes every edge that points at `subjectAgentId`. Run it after any change to its sources. */
export async function deriveEdgesInto(subjectAgentId: string, runner: Queryable = database().sql): Promise<void> {
  await runner.query(
    `WITH trust AS (
       SELECT source, sum(amount) AS strength FROM (
         SELECT ${ACTOR_AGENT('e.endorser_wallet')} AS source, 0.5 AS amount
         FROM endorsements e WHERE e.subject_agent_id = $1 AND e.status = 'active'
         UNION ALL
         SELECT ${ACTOR_AGENT('t.attester_wallet')},
                CASE t.verdict WHEN 'positive' THEN t.weight / 10.0 WHEN 'negative' THEN -t.weight / 10.0 ELSE 0 END
         FROM attestations t WHERE t.subject_agent_id = $1
       ) x WHERE source IS NOT NULL AND source <> $1 GROUP BY source
     ),
     partnership AS (
       SELECT caller_agent_id AS source, count(*) * 0.1 AS strength
       FROM invocations WHERE target_agent_id = $1 AND status = 'success' AND caller_agent_id IS NOT NULL AND caller_agent_id <> $1
       GROUP BY caller_agent_id
     ),
     derived AS (
       SELECT source, 'trust' AS type, LEAST(1.0, strength) AS strength FROM trust WHERE strength > 0
       UNION ALL
       SELECT source, 'partnership', LEAST(1.0, strength) FROM partnership
     ),
     cleared AS (DELETE FROM trust_edges WHERE target_agent_id = $1 RETURNING 1)
     INSERT INTO trust_edges (source_agent_id, target_agent_id, type, strength, updated_at)
     SELECT source, $1, type, strength::float8, now() FROM derived, (SELECT count(*) FROM cleared) c
     ON CONFLICT (source_agent_id, target_agent_id, type) DO UPDATE SET strength = excluded.strength, updated_at = now()`,
    [subjectAgentId],
  );
}
