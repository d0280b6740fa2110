import type { Address } from 'viem';
import { ConcurrencyGate, GateFullError } from '../core/concurrency-gate';
import { database } from '../core/db';
import type { Queryable } from '../core/db/sql-runner';
import { ApiError } from '../core/errors';
import { sharedCache, sharedState } from '../core/shared-state';
import {
  TRUST_COUNT_COLUMNS,
  TRUST_COUNT_JOINS,
  topTrustedAgentIds,
  trustCountsFromRows,
  type TrustCountRow,
} from './trust-counts';
import { computeTrust } from './trust-score';

// Bounds that keep a dense graph at depth 4 fast: the response says when it was cut. Each hop
// follows at most EDGES_PER_NODE of a node's strongest edges each way (index on strength), so a
// hub with 50,000 endorsers costs what any node costs.
export const MAX_NODES = 200;
export const MAX_EDGES = 2000;
export const OVERVIEW_NODES = 50;
export const EDGES_PER_NODE = 25;

// At most GRAPH_CONCURRENCY graph computations run at once (each holds a pooled connection for
// its hops), GRAPH_QUEUE more wait; past that a request gets 503 with Retry-After at once, so 50
// graph requests in flight leave the rest of the pool to every other read. Identical requests in
// flight share one computation, and answers are kept GRAPH_TTL_MS (dropped on any trust or agent
// change anywhere), so a popular graph costs one computation per change.
export const GRAPH_CONCURRENCY = 3;
export const GRAPH_QUEUE = 24;
export const GRAPH_TTL_MS = 30_000;
export const GRAPH_RETRY_AFTER_SECONDS = 1;

export type Graph = Awaited<ReturnType<typeof computeConnectionGraph>>;
// Graphs are kept as their JSON text: one string a graph, where its objects (up to 200 nodes and 2,000
// edges, 0.5 MB at depth 3-4) were the largest part of the server's RSS after the scale bench and, kept
// past a young-generation collection, the largest part of its cost. The REST door writes the text as it
// is (and keeps it in its response cache, bounded by bytes); this cache holds the most recent few for
// the other doors and shares a computation in flight.
const graphs = sharedCache<string>('trust.connection-graph', {
  ttlMs: GRAPH_TTL_MS,
  maxEntries: 100,
  dropOn: ['trust', 'agent'],
});
const gate = sharedState('trust.connection-graph.gate', () => new ConcurrencyGate(GRAPH_CONCURRENCY, GRAPH_QUEUE));

interface EdgeRow {
  source: string;
  target: string;
  type: 'trust' | 'collaboration' | 'partnership';
  strength: number;
}

/** A node of the answer: its agent's columns and its maintained trust counts (trust-counts.ts). */
interface NodeRow extends TrustCountRow {
  owner_wallet: string;
  handle: string;
  name: string;
}

/** What the answer reads once its nodes are known (answerAround). */
interface AnswerRow {
  /** Every edge among the nodes (a cycle or a cross-link found at the last hop included), strongest first. */
  among: EdgeRow[];
  nodes: NodeRow[];
}

/** An edge a hop follows: [source, target, type, strength]. */
type HopEdge = [string, string, EdgeRow['type'], number];

/** A hop's reads: the edges it may follow, in the hop's order, and whether one past EDGES_PER_NODE was left out. */
interface HopReads {
  cut: boolean;
  edges: HopEdge[];
}

/** What the walk found: the nodes in the order they joined, the edges it followed that join two of them, whether a bound cut something. */
interface Walk {
  centers: string[];
  nodes: string[];
  kept: HopEdge[];
  truncated: boolean;
}

/** How many of a frontier node's strongest edges each way a hop follows: enough to fill the room left, 3 to EDGES_PER_NODE. */
function perNodeFor(room: number, frontier: number): number {
  return Math.max(3, Math.min(EDGES_PER_NODE, Math.ceil((2 * room) / frontier)));
}

/** perNodeFor in SQL, for `n` centers with room left (the first hop, read with the centers). */
const PER_NODE_SQL = (n: string) =>
  `greatest(3, least(${EDGES_PER_NODE}, ceil((2 * (${MAX_NODES} - ${n}))::numeric / ${n})::int))`;

/**
 * A hop's reads as one JSON value (HopReads): each frontier node's `limit` strongest edges out and in (by the
 * strength indexes), those ranked past EDGES_PER_NODE on their side only flagged, the rest in the hop's order
 * (strongest first, then source, target and type) up to MAX_EDGES + 1. A few hundred edges (600 at the second hop
 * around a wallet of the large preset): the walk's choices over them take the server 0.1 ms, where a PL/pgSQL walk
 * spent 2 ms of the database's time in CTEs.
 */
const HOP_READS = (frontier: string, limit: string) => `(WITH read AS MATERIALIZED (
    SELECT e.* FROM unnest(${frontier}) AS f(id) CROSS JOIN LATERAL (
      (SELECT t.source_agent_id AS source, t.target_agent_id AS target, t.type, t.strength,
              row_number() OVER (ORDER BY t.strength DESC ROWS UNBOUNDED PRECEDING) AS rank
       FROM trust_edges t WHERE t.source_agent_id = f.id ORDER BY t.strength DESC LIMIT ${limit})
      UNION ALL
      (SELECT t.source_agent_id, t.target_agent_id, t.type, t.strength,
              row_number() OVER (ORDER BY t.strength DESC ROWS UNBOUNDED PRECEDING)
       FROM trust_edges t WHERE t.target_agent_id = f.id ORDER BY t.strength DESC LIMIT ${limit})) e),
  used AS (SELECT r.source, r.target, r.type, r.strength FROM read r WHERE r.rank <= ${EDGES_PER_NODE}
           ORDER BY r.strength DESC, r.source, r.target, r.type LIMIT ${MAX_EDGES + 1})
  SELECT json_build_object('cut', EXISTS (SELECT 1 FROM read r WHERE r.rank > ${EDGES_PER_NODE}),
    'edges', coalesce((SELECT json_agg(json_build_array(u.source, u.target, u.type, u.strength)
                       ORDER BY u.strength DESC, u.source, u.target, u.type) FROM used u), '[]')))`;

/** A later hop's reads (the first comes with the centers): `limit` strongest edges each way per frontier node. */
async function hopReads(sql: Queryable, frontier: string[], limit: number): Promise<HopReads> {
  const [row] = await sql.query<{ reads: HopReads }>(`SELECT ${HOP_READS('$1::uuid[]', '$2::int')} AS reads`, [frontier, limit], {
    prepare: true,
  });
  return row!.reads;
}

/**
 * Breadth-first from the wallet's agents (the centers, oldest first), `depth` hops. A hop follows each frontier
 * node's perNodeFor() + 1 strongest edges each way, of which those ranked past EDGES_PER_NODE only say the graph
 * was cut; the first MAX_EDGES of them, strongest first; their new endpoints join in the order they first appear
 * until MAX_NODES. One bounded read per hop (the first with the centers), all on one connection of the primary;
 * the choices are made here. Null when the wallet has no agent.
 */
function walkFrom(wallet: string, depth: number): Promise<Walk | null> {
  return database().sql.withConnection(async (sql) => {
    const [first] = await sql.query<{ centers: string[] | null; reads: HopReads | null }>(
      `WITH c AS MATERIALIZED (SELECT array_agg(id ORDER BY created_at, id) AS ids FROM (
         SELECT id, created_at FROM agents WHERE owner_wallet = $1 ORDER BY created_at, id LIMIT ${MAX_NODES + 1}) a)
       SELECT to_json(c.ids) AS centers,
         CASE WHEN cardinality(c.ids) < ${MAX_NODES} THEN ${HOP_READS('c.ids', `${PER_NODE_SQL('cardinality(c.ids)')} + 1`)} END AS reads
       FROM c`,
      [wallet],
      { prepare: true },
    );
    if (!first?.centers?.length) return null;
    // A wallet with more than MAX_NODES agents: its oldest MAX_NODES are the centers, and the graph says it was cut.
    const centers = first.centers.slice(0, MAX_NODES);
    const walk: Walk = { centers, nodes: [...centers], kept: [], truncated: first.centers.length > MAX_NODES };
    const visited = new Set(centers);
    let frontier = centers;
    for (let level = 1; level <= depth && frontier.length > 0; level++) {
      const room = MAX_NODES - visited.size; // the centers are capped at MAX_NODES
      const perNode = perNodeFor(room, frontier.length);
      if (room === 0 && perNode < EDGES_PER_NODE && 2 * (perNode + 1) * frontier.length <= MAX_EDGES) {
        // The graph is full: this hop can add no node, and the edges it would keep join visited nodes, which the
        // answer reads anyway (every edge among the nodes). All it can tell is whether a node was left out, and
        // the first edge to one tells it (the hop would read no edge past EDGES_PER_NODE, nor more than MAX_EDGES).
        const [probe] = await sql.query<{ beyond: boolean }>(
          `SELECT EXISTS (SELECT 1 FROM unnest($1::uuid[]) AS f(id) CROSS JOIN LATERAL (
             (SELECT t.target_agent_id AS other FROM trust_edges t WHERE t.source_agent_id = f.id ORDER BY t.strength DESC LIMIT $2::int)
             UNION ALL
             (SELECT t.source_agent_id FROM trust_edges t WHERE t.target_agent_id = f.id ORDER BY t.strength DESC LIMIT $2::int)) e
           WHERE NOT (e.other = ANY ($3::uuid[]))) AS beyond`,
          [frontier, perNode + 1, walk.nodes],
          { prepare: true },
        );
        walk.truncated ||= probe?.beyond === true;
        break;
      }
      const reads = level === 1 && first.reads ? first.reads : await hopReads(sql, frontier, perNode + 1);
      if (reads.cut || reads.edges.length > MAX_EDGES) walk.truncated = true;
      const hop = reads.edges.slice(0, MAX_EDGES);
      const admitted: string[] = [];
      for (const edge of hop) {
        for (const end of [edge[0], edge[1]]) {
          if (visited.has(end)) continue;
          if (admitted.length < room) {
            visited.add(end);
            admitted.push(end);
          } else walk.truncated = true;
        }
      }
      for (const edge of hop) if (visited.has(edge[0]) && visited.has(edge[1])) walk.kept.push(edge);
      walk.nodes.push(...admitted);
      frontier = admitted;
    }
    return walk;
  });
}

/**
 * The answer once its nodes are known: two statements side by side (a wait of one, 2-3 ms each on the large
 * preset; as one statement they took their sum), each answering one JSON value (a row per edge and per node
 * cost the server more to parse than the statements took).
 */
async function answerAround(ids: string[]): Promise<AnswerRow> {
  const { sql } = database();
  const [[among], [nodes]] = await Promise.all([
    sql.query<{ rows: EdgeRow[] }>(
      // a join, not two ANY filters on one scan: 2 ms instead of 14 ms for 200 nodes around a hub
      `WITH n AS MATERIALIZED (SELECT DISTINCT unnest($1::uuid[]) AS id)
       SELECT coalesce(json_agg(r ORDER BY r.strength DESC, r.source, r.target, r.type), '[]') AS rows FROM (
         SELECT e.source_agent_id AS source, e.target_agent_id AS target, e.type, e.strength
         FROM n JOIN trust_edges e ON e.source_agent_id = n.id WHERE e.target_agent_id IN (SELECT id FROM n)
         ORDER BY e.strength DESC, e.source_agent_id, e.target_agent_id, e.type LIMIT ${MAX_EDGES + 1}) r`,
      [ids],
      { prepare: true },
    ),
    sql.query<{ rows: NodeRow[] }>(
      `SELECT coalesce(json_agg(r), '[]') AS rows FROM (
         SELECT a.owner_wallet, a.handle, a.name, ${TRUST_COUNT_COLUMNS}
         FROM agents a ${TRUST_COUNT_JOINS} WHERE a.id = ANY($1::uuid[])) r`,
      [ids],
      { prepare: true },
    ),
  ]);
  return { among: among!.rows, nodes: nodes!.rows };
}

/** GET /api/graph/connections: the graph around a wallet's agents up to `depth` hops, or the most trusted agents. */
export async function connectionGraph(input: { wallet?: Address; depth: number }): Promise<Graph> {
  return JSON.parse(await connectionGraphJson(input)) as Graph;
}

/** connectionGraph() as JSON text, as the cache keeps it. */
export function connectionGraphJson(input: { wallet?: Address; depth: number }): Promise<string> {
  const key = input.wallet ? `${input.wallet.toLowerCase()}|${input.depth}` : 'overview';
  return graphs().get(key, async () => {
    try {
      return JSON.stringify(await gate().run(() => computeConnectionGraph(input)));
    } catch (error) {
      if (!(error instanceof GateFullError)) throw error;
      throw new ApiError(
        'service_unavailable',
        'Too many graph requests in flight; retry shortly',
        { retry_after_seconds: GRAPH_RETRY_AFTER_SECONDS },
        { 'Retry-After': String(GRAPH_RETRY_AFTER_SECONDS) },
      );
    }
  });
}

async function computeConnectionGraph(input: { wallet?: Address; depth: number }) {
  let truncated = false;
  let centers: string[] = [];
  const edges = new Map<string, EdgeRow>();
  const keep = (edge: EdgeRow) => edges.set(`${edge.source}|${edge.target}|${edge.type}`, edge);

  let answer: AnswerRow;
  if (input.wallet) {
    const walk = await walkFrom(input.wallet, input.depth);
    if (!walk) throw new ApiError('not_found', 'No agent for this wallet');
    centers = walk.centers;
    truncated = walk.truncated;
    for (const [source, target, type, strength] of walk.kept) keep({ source, target, type, strength });
    answer = await answerAround(walk.nodes);
  } else {
    const ids = await topTrustedAgentIds(OVERVIEW_NODES, database().sql);
    // a bounded count: is there any agent beyond the ones shown?
    const [beyond] = await database().sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM agents LIMIT ${OVERVIEW_NODES + 1}) a`,
    );
    truncated = Number(beyond?.n ?? 0) > ids.length;
    answer = await answerAround(ids);
  }
  // The walk's edges first (they join the graph up), then the strongest others among its nodes, to MAX_EDGES.
  for (const edge of answer.among) {
    if (edges.size >= MAX_EDGES) {
      truncated ||= !edges.has(`${edge.source}|${edge.target}|${edge.type}`);
      continue;
    }
    keep(edge);
  }
  const agents = answer.nodes;
  const counts = await trustCountsFromRows(agents, database().sql);
  const nodes = agents
    .map((agent) => {
      const found = counts.get(agent.tc_id);
      return {
        id: agent.tc_id,
        wallet_address: agent.owner_wallet,
        handle: agent.handle,
        name: agent.name,
        tier: agent.tc_tier,
        trust_score: found ? computeTrust(found.inputs).total : 0,
        propagated_trust: found?.propagatedTrust ?? 0,
      };
    })
    .sort((a, b) => b.trust_score - a.trust_score || a.id.localeCompare(b.id));
  return {
    center: input.wallet ? { wallet: input.wallet, agent_ids: centers } : null,
    depth: input.wallet ? input.depth : null,
    nodes,
    edges: [...edges.values()].map((edge) => ({ ...edge, strength: Math.round(Number(edge.strength) * 1000) / 1000 })),
    truncated,
    limits: { max_nodes: input.wallet ? MAX_NODES : OVERVIEW_NODES, max_edges: MAX_EDGES },
  };
}
