import { sharedState } from '../core/shared-state';
import { ASYNC_COMMIT } from '../core/db/async-commit';
import type { Queryable } from '../core/db/sql-runner';
import { endorserStandingSql } from './endorser-standing';

// The one place that derives the connection graph. An edge points from the agent that acted
// (endorser, attester, caller) to the agent it acted on; a wallet acts through its oldest agent.
//   trust:        active endorsements by endorsers with standing (endorser-standing.ts) 0.5 each, attestations +-weight/10 (neutral 0),
//                 ERC-8004 feedback on the linked identity from reviewers with evidence (a paid successful call to the agent,
//                 or a completed job between the two wallets): per reviewer (mean rating 0-100 - 50) / 100, so -0.5..+0.5
//                 (docs/erc8004.md); clamped to 0-1
//   partnership:  successful invocations, 0.1 each up to 1
//   collaboration: completed jobs, 0.25 each up to 1, both ways between the poster and the winning bidder
// Only edges with strength > 0 exist; connections_count counts distinct neighbours over them.

const ACTOR_AGENT = (wallet: string) =>
  `(SELECT id FROM agents WHERE owner_wallet = ${wallet} ORDER BY created_at ASC, id ASC LIMIT 1)`;

/** Recomputes every edge that points at `subjectAgentId`. Run it after any change to its sources. */
export async function deriveEdgesInto(subjectAgentId: string, runner: Queryable): Promise<void> {
  await runner.query(
    `WITH trust AS (
       SELECT source, sum(amount) AS strength FROM (
         SELECT ${ACTOR_AGENT('e.endorser_wallet')} AS source, 0.5 AS amount
         FROM endorsements e WHERE e.subject_agent_id = $1 AND e.status = 'active'
           AND ${endorserStandingSql('e.endorser_wallet')}
         UNION ALL
         SELECT ${ACTOR_AGENT('t.attester_wallet')},
                CASE t.verdict WHEN 'positive' THEN t.weight / 10.0 WHEN 'negative' THEN -t.weight / 10.0 ELSE 0 END
         FROM attestations t WHERE t.subject_agent_id = $1
         UNION ALL
         SELECT ${ACTOR_AGENT('r.client_address')}, (avg(r.rating) - 50) / 100.0 FROM (
           SELECT f.client_address, f.value::numeric / power(10::numeric, f.value_decimals) AS rating
           FROM erc8004_feedback f
           JOIN erc8004_links l ON l.chain_id = f.chain_id AND l.registry = f.identity_registry AND l.token_id = f.token_id
           JOIN agents a ON a.id = l.agent_id
           WHERE l.agent_id = $1 AND NOT f.revoked AND f.client_address <> a.owner_wallet
             AND (EXISTS (SELECT 1 FROM invocations i WHERE i.target_agent_id = $1 AND i.caller_wallet = f.client_address
                            AND i.status = 'success' AND i.fee > 0)
               OR EXISTS (SELECT 1 FROM jobs j JOIN job_bids b ON b.id = j.accepted_bid_id WHERE j.status = 'completed'
                            AND ((j.poster_wallet = f.client_address AND b.bidder_wallet = a.owner_wallet)
                              OR (b.bidder_wallet = f.client_address AND j.poster_wallet = a.owner_wallet))))
         ) r WHERE r.rating BETWEEN 0 AND 100 GROUP BY r.client_address
       ) x WHERE source IS NOT NULL AND source <> $1 GROUP BY source
     ),
     partnership AS (
       SELECT caller_agent_id AS source, count(*) * 0.1 AS strength
       FROM invocations WHERE target_agent_id = $1 AND status = 'success' AND caller_agent_id IS NOT NULL AND caller_agent_id <> $1
       GROUP BY caller_agent_id
     ),
     collaboration AS (
       SELECT source, count(*) * 0.25 AS strength FROM (
         SELECT ${ACTOR_AGENT('j.poster_wallet')} AS source, ${ACTOR_AGENT('b.bidder_wallet')} AS target
         FROM jobs j JOIN job_bids b ON b.id = j.accepted_bid_id WHERE j.status = 'completed'
           AND $1 IN (SELECT id FROM agents WHERE owner_wallet IN (j.poster_wallet, b.bidder_wallet))
         UNION ALL
         SELECT ${ACTOR_AGENT('b.bidder_wallet')}, ${ACTOR_AGENT('j.poster_wallet')}
         FROM jobs j JOIN job_bids b ON b.id = j.accepted_bid_id WHERE j.status = 'completed'
           AND $1 IN (SELECT id FROM agents WHERE owner_wallet IN (j.poster_wallet, b.bidder_wallet))
       ) x WHERE target = $1 AND source IS NOT NULL AND source <> $1 GROUP BY source
     ),
     derived AS (
       SELECT source, 'trust' AS type, LEAST(1.0, strength) AS strength FROM trust WHERE strength > 0
       UNION ALL
       SELECT source, 'partnership', LEAST(1.0, strength) FROM partnership
       UNION ALL
       SELECT source, 'collaboration', LEAST(1.0, strength) FROM collaboration
     ),
     cleared AS (DELETE FROM trust_edges WHERE target_agent_id = $1 RETURNING 1)
     INSERT INTO trust_edges (source_agent_id, target_agent_id, type, strength, updated_at)
     SELECT source, $1, type, strength::float8, now() FROM derived, (SELECT count(*) FROM cleared) c
     ON CONFLICT (source_agent_id, target_agent_id, type) DO UPDATE SET strength = excluded.strength, updated_at = now()`,
    [subjectAgentId],
  );
}

// Pairs whose partnership edge is already at full strength: nothing left to record for them.
const saturatedPairs = sharedState('trust.saturated-partnerships', () => new Set<string>());
const SATURATED_MAX = 100_000;

/**
 * A successful invocation adds 0.1 to the caller -> target partnership edge, as deriveEdgesInto
 * would compute from the invocations table, without recounting them on the hot path.
 * Returns true when the edge is new (the two agents' connection counts changed). Committed asynchronously
 * (core/db/async-commit.ts: run it on the pool, not in a transaction): a derived figure that
 * deriveEdgesInto recomputes from the invocations.
 */
export async function recordPartnership(callerAgentId: string, targetAgentId: string, runner: Queryable): Promise<boolean> {
  if (callerAgentId === targetAgentId) return false;
  const saturated = saturatedPairs();
  const key = `${callerAgentId}|${targetAgentId}`;
  if (saturated.has(key)) return false;
  const [row] = await runner.query<{ strength: number; inserted: boolean }>(
    `INSERT INTO trust_edges (source_agent_id, target_agent_id, type, strength, updated_at)
     VALUES ($1, $2, 'partnership', 0.1, now())
     ON CONFLICT (source_agent_id, target_agent_id, type) DO UPDATE
       SET strength = LEAST(1.0, trust_edges.strength + 0.1), updated_at = now()
       WHERE trust_edges.strength < 1.0
     RETURNING strength, (xmax = 0) AS inserted, ${ASYNC_COMMIT} AS async_commit`,
    [callerAgentId, targetAgentId],
  );
  if (!row || Number(row.strength) >= 0.999) {
    if (saturated.size >= SATURATED_MAX) saturated.clear();
    saturated.add(key);
  }
  return Boolean(row?.inserted);
}

/**
 * A completed job: recompute the edges into the poster's and the winning bidder's agents (each
 * wallet acts through its oldest agent), which adds or strengthens their collaboration edges.
 */
export async function recordCollaboration(posterWallet: string, bidderWallet: string, runner: Queryable): Promise<void> {
  const rows = await runner.query<{ id: string }>(`SELECT ${ACTOR_AGENT('$1')} AS id UNION ALL SELECT ${ACTOR_AGENT('$2')}`, [
    posterWallet,
    bidderWallet,
  ]);
  const ids = rows.map((row) => row.id).filter(Boolean);
  if (ids.length < 2 || ids[0] === ids[1]) return;
  for (const id of ids) await deriveEdgesInto(id, runner);
}
