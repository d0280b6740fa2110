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

/**
 * The trust strength of each source agent into the subject $1, from the rows whose wallet column satisfies `by`
 * (every row, or one wallet's): as a CTE body of (source, strength).
 */
const TRUST_SOURCES = (by: (walletColumn: string) => string) => `
       SELECT source, sum(amount) AS strength FROM (
         SELECT ${ACTOR_AGENT('e.endorser_wallet')} AS source, 0.5 AS amount
         FROM endorsements e WHERE e.subject_agent_id = $1 AND e.status = 'active' AND ${by('e.endorser_wallet')}
           AND ${endorserStandingSql('e.endorser_wallet')}
         UNION ALL
         SELECT ${ACTOR_AGENT('t.attester_wallet')},
                CASE t.verdict WHEN 'positive' THEN t.weight / 10.0 WHEN 'negative' THEN -t.weight / 10.0 ELSE 0 END
         FROM attestations t WHERE t.subject_agent_id = $1 AND ${by('t.attester_wallet')}
         UNION ALL
         SELECT ${ACTOR_AGENT('r.client_address')}, (avg(r.rating) - 50) / 100.0 FROM (
           SELECT f.client_address, f.value::numeric / power(10::numeric, f.value_decimals) AS rating
           FROM erc8004_feedback f
           JOIN erc8004_links l ON l.chain_id = f.chain_id AND l.registry = f.identity_registry AND l.token_id = f.token_id
           JOIN agents a ON a.id = l.agent_id
           WHERE l.agent_id = $1 AND NOT f.revoked AND f.client_address <> a.owner_wallet AND ${by('f.client_address')}
             AND (EXISTS (SELECT 1 FROM invocations i WHERE i.target_agent_id = $1 AND i.caller_wallet = f.client_address
                            AND i.status = 'success' AND i.fee > 0)
               OR EXISTS (SELECT 1 FROM jobs j JOIN job_bids b ON b.id = j.accepted_bid_id WHERE j.status = 'completed'
                            AND ((j.poster_wallet = f.client_address AND b.bidder_wallet = a.owner_wallet)
                              OR (b.bidder_wallet = f.client_address AND j.poster_wallet = a.owner_wallet))))
         ) r WHERE r.rating BETWEEN 0 AND 100 GROUP BY r.client_address
       ) x WHERE source IS NOT NULL AND source <> $1 GROUP BY source`;

/**
 * Recomputes the trust edges from `wallets`' agents (each wallet's oldest) into `subjectAgentId`, from those wallets'
 * endorsements, attestations and ERC-8004 feedback of the subject alone: what an endorsement, its revocation or an
 * attestation by a wallet changes, or a change of its standing, or of the reviews that count for the subject. One
 * statement for any number of wallets. (Recomputing every edge into the subject instead judged the standing of every
 * endorser it has: 24-30 s per endorsement of an agent with 19,329 endorsers.) Wallets as the rows store them.
 */
export async function deriveTrustEdges(subjectAgentId: string, wallets: string[], runner: Queryable): Promise<void> {
  if (wallets.length === 0) return;
  await runner.query(
    `WITH trust AS (${TRUST_SOURCES((column) => `${column} = ANY($2::text[])`)}),
     cleared AS (
       DELETE FROM trust_edges WHERE target_agent_id = $1 AND type = 'trust'
         AND source_agent_id IN (SELECT ${ACTOR_AGENT('u.wallet')} FROM unnest($2::text[]) AS u(wallet))
       RETURNING 1)
     INSERT INTO trust_edges (source_agent_id, target_agent_id, type, strength, updated_at)
     SELECT source, $1, 'trust', LEAST(1.0, strength)::float8, now() FROM trust, (SELECT count(*) FROM cleared) c
     WHERE strength > 0
     ON CONFLICT (source_agent_id, target_agent_id, type) DO UPDATE SET strength = excluded.strength, updated_at = now()`,
    [subjectAgentId, wallets],
  );
}

/**
 * Recomputes every edge that points at `subjectAgentId`, from all its sources: for a change that may move any of
 * them (the ERC-8004 indexer dropping the agent's link when its token changed hands). A change by one wallet
 * recomputes that wallet's edge alone (deriveTrustEdges), a completed job its pair's (recordCollaboration).
 */
export async function deriveEdgesInto(subjectAgentId: string, runner: Queryable): Promise<void> {
  await runner.query(
    `WITH trust AS (${TRUST_SOURCES(() => 'true')}
     ),
     partnership AS (
       SELECT caller_agent_id AS source, count(*) * 0.1 AS strength
       FROM invocations WHERE target_agent_id = $1 AND status = 'success' AND caller_agent_id IS NOT NULL AND caller_agent_id <> $1
       GROUP BY caller_agent_id
     ),
     collaboration AS (
       SELECT source, count(*) * 0.25 AS strength FROM (
         -- the subject's wallet as the winning bidder (job_bids by bidder_wallet), then as the poster (jobs by
         -- poster_wallet); target = $1 keeps only the wallet's oldest agent, the one that acts
         SELECT ${ACTOR_AGENT('j.poster_wallet')} AS source, ${ACTOR_AGENT('b.bidder_wallet')} AS target
         FROM job_bids b JOIN jobs j ON j.accepted_bid_id = b.id
         WHERE b.bidder_wallet = (SELECT owner_wallet FROM agents WHERE id = $1) AND j.status = 'completed'
         UNION ALL
         SELECT ${ACTOR_AGENT('b.bidder_wallet')}, ${ACTOR_AGENT('j.poster_wallet')}
         FROM jobs j JOIN job_bids b ON b.id = j.accepted_bid_id
         WHERE j.poster_wallet = (SELECT owner_wallet FROM agents WHERE id = $1) AND j.status = 'completed'
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
 * A completed job: the collaboration edges between the poster's and the winning bidder's agents (each wallet acts
 * through its oldest agent), both ways, 0.25 for each job completed between the two wallets in either role; and
 * the trust edge each way, whose ERC-8004 part counts a completed job between the two as evidence. Only these
 * pairs changed: recomputing every edge into both agents (what this did) judged the standing of every endorser
 * each has, seconds for an agent with thousands, inside the job's transaction.
 */
export async function recordCollaboration(posterWallet: string, bidderWallet: string, runner: Queryable): Promise<void> {
  const rows = await runner.query<{ id: string }>(`SELECT ${ACTOR_AGENT('$1')} AS id UNION ALL SELECT ${ACTOR_AGENT('$2')}`, [
    posterWallet,
    bidderWallet,
  ]);
  const [poster, bidder] = rows.map((row) => row.id);
  if (!poster || !bidder || poster === bidder) return;
  await runner.query(
    `WITH completed AS (
       SELECT count(*) * 0.25 AS strength FROM jobs j JOIN job_bids b ON b.id = j.accepted_bid_id
       WHERE j.status = 'completed'
         AND ((j.poster_wallet = $1 AND b.bidder_wallet = $2) OR (j.poster_wallet = $2 AND b.bidder_wallet = $1))),
     pair (source, target) AS (VALUES ($3::uuid, $4::uuid), ($4::uuid, $3::uuid)),
     cleared AS (
       DELETE FROM trust_edges t USING pair p
       WHERE t.source_agent_id = p.source AND t.target_agent_id = p.target AND t.type = 'collaboration' RETURNING 1)
     INSERT INTO trust_edges (source_agent_id, target_agent_id, type, strength, updated_at)
     SELECT p.source, p.target, 'collaboration', LEAST(1.0, c.strength)::float8, now()
     FROM pair p, completed c, (SELECT count(*) FROM cleared) d WHERE c.strength > 0
     ON CONFLICT (source_agent_id, target_agent_id, type) DO UPDATE SET strength = excluded.strength, updated_at = now()`,
    [posterWallet, bidderWallet, poster, bidder],
  );
  await deriveTrustEdges(bidder, [posterWallet], runner);
  await deriveTrustEdges(poster, [bidderWallet], runner);
}
