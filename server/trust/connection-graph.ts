import type { Address } from 'viem';
import { AGENT_METRIC_COLUMNS, AGENT_METRIC_JOINS, metricsFromRows, type AgentMetricRow } from './agent-metrics';
import { ConcurrencyGate, GateFullError } from '../core/concurrency-gate';
import { database } from '../core/db';
import { ApiError } from '../core/errors';
import { sharedCache, sharedState } from '../core/shared-state';
import { topTrustedAgentIds } from './trust-counts';

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

type Graph = Awaited<ReturnType<typeof computeConnectionGraph>>;
// A graph at depth 3-4 is up to 0.5 MB of objects (200 nodes, 2,000 edges): 5,000 of them were the
// largest part of the server's RSS after the scale bench. The REST door keeps their JSON in its response
// cache as well (bounded by bytes), so this one holds the most recent few for the other doors.
const graphs = sharedCache<Graph>('trust.connection-graph', {
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

/** A node of the answer: its agent's columns and what its metrics need (agent-metrics.ts). */
interface NodeRow extends AgentMetricRow {
  owner_wallet: string;
  handle: string;
  name: string;
}

interface RankedEdgeRow extends EdgeRow {
  /** The edge's place among its frontier node's edges that way, strongest first (index order). */
  rank: number | string;
}

// A ROWS frame lets row_number() stream: with the default (RANGE) frame the window read on to the end of
// the last row's peers, every edge of equal strength (0.5 for most endorsements) before LIMIT stopped it.
const RANK = 'row_number() OVER (ORDER BY strength DESC ROWS UNBOUNDED PRECEDING)';
const EDGE_ORDER = 'e.strength DESC, e.source, e.target, e.type';

/** The `limit` strongest edges out of and into each node of `frontier` (a relation with an `id` column named f). */
function edgesOf(frontier: string, limit: number): string {
  return `SELECT e.* FROM ${frontier} CROSS JOIN LATERAL (
       (SELECT source_agent_id AS source, target_agent_id AS target, type, strength, ${RANK} AS rank
        FROM trust_edges WHERE source_agent_id = f.id ORDER BY strength DESC LIMIT ${limit})
       UNION ALL
       (SELECT source_agent_id, target_agent_id, type, strength, ${RANK}
        FROM trust_edges WHERE target_agent_id = f.id ORDER BY strength DESC LIMIT ${limit})) e`;
}

/**
 * A hop's edges from rows of edgesOf() read with a limit of perNode + 1 or more: the strongest
 * perNode + 1 each way (what a limit of perNode + 1 reads, in the same index order), and `more` when
 * a node has edges past EDGES_PER_NODE.
 */
function hop(rows: RankedEdgeRow[], perNode: number): { edges: EdgeRow[]; more: boolean } {
  const read = rows.filter((row) => Number(row.rank) <= perNode + 1);
  return {
    edges: read.filter((row) => Number(row.rank) <= EDGES_PER_NODE),
    more: read.some((row) => Number(row.rank) > EDGES_PER_NODE),
  };
}

/** The strongest `perNode` edges out of and into each node, strongest first; `more` when a node has others. */
async function edgesTouching(ids: string[], perNode: number): Promise<{ edges: EdgeRow[]; more: boolean }> {
  const rows = await database().sql.query<RankedEdgeRow>(
    `${edgesOf('unnest($1::uuid[]) AS f(id)', perNode + 1)} ORDER BY ${EDGE_ORDER}`,
    [ids],
  );
  return hop(rows, perNode);
}

/**
 * The wallet's agents (the centers, oldest first) and the edges of the first hop from them, in one
 * statement (one round trip, not two). The hop reads EDGES_PER_NODE + 1 edges each way, the most any
 * hop reads; hop() cuts them to what the centers' count allows.
 */
async function centersAndFirstEdges(wallet: string): Promise<{ centers: string[]; rows: RankedEdgeRow[] }> {
  const rows = await database().sql.query<RankedEdgeRow & { centers: string[] | null }>(
    `WITH f AS MATERIALIZED (SELECT id, created_at FROM agents WHERE owner_wallet = $1)
     SELECT c.centers, e.* FROM (SELECT array_agg(id::text ORDER BY created_at, id) AS centers FROM f) c
       LEFT JOIN (${edgesOf('f', EDGES_PER_NODE + 1)}) e ON true
     ORDER BY ${EDGE_ORDER}`,
    [wallet],
  );
  return { centers: rows[0]?.centers ?? [], rows: rows.filter((row) => row.source !== null) };
}

/** GET /api/graph/connections: the graph around a wallet's agents up to `depth` hops, or the most trusted agents. */
export function connectionGraph(input: { wallet?: Address; depth: number }): Promise<Graph> {
  const key = input.wallet ? `${input.wallet.toLowerCase()}|${input.depth}` : 'overview';
  return graphs().get(key, async () => {
    try {
      return await gate().run(() => computeConnectionGraph(input));
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

/**
 * What the answer reads once its nodes are known, two statements side by side (one round trip's wait):
 * every edge among the nodes (a cycle or a cross-link found at the last level included), and the nodes
 * with their scores.
 */
function answerRows(ids: string[]): Promise<[EdgeRow[], NodeRow[]]> {
  if (ids.length === 0) return Promise.resolve([[], []]);
  const { sql } = database();
  return Promise.all([
    sql.query<EdgeRow>(
      // a join, not two ANY filters on one scan: 2 ms instead of 14 ms for 200 nodes around a hub
      `SELECT e.source_agent_id AS source, e.target_agent_id AS target, e.type, e.strength
       FROM unnest($1::uuid[]) AS f(id) JOIN trust_edges e ON e.source_agent_id = f.id
       WHERE e.target_agent_id = ANY($1::uuid[])
       ORDER BY e.strength DESC, e.source_agent_id, e.target_agent_id, e.type LIMIT ${MAX_EDGES + 1}`,
      [ids],
    ),
    sql.query<NodeRow>(
      `SELECT a.owner_wallet, a.handle, a.name, ${AGENT_METRIC_COLUMNS}
       FROM agents a ${AGENT_METRIC_JOINS} WHERE a.id = ANY($1::uuid[])`,
      [ids],
    ),
  ]);
}

async function computeConnectionGraph(input: { wallet?: Address; depth: number }) {
  let truncated = false;
  let centers: string[] = [];
  const visited = new Set<string>();
  const edges = new Map<string, EdgeRow>();
  const keep = (edge: EdgeRow) => edges.set(`${edge.source}|${edge.target}|${edge.type}`, edge);
  let answer: [EdgeRow[], NodeRow[]] | null = null;

  if (input.wallet) {
    const first = await centersAndFirstEdges(input.wallet);
    if (first.centers.length === 0) throw new ApiError('not_found', 'No agent for this wallet');
    centers = first.centers;
    centers.forEach((id) => visited.add(id));
    let frontier = centers;
    for (let level = 0; level < input.depth && frontier.length > 0; level++) {
      // Only MAX_NODES - visited more nodes can join: a wide frontier needs few edges from each.
      const room = MAX_NODES - visited.size;
      const perNode = Math.max(3, Math.min(EDGES_PER_NODE, Math.ceil((2 * room) / frontier.length)));
      // A full graph gains no node at this hop (its last: the next frontier is empty), so the answer's
      // statements, which read the nodes alone, run beside it: at depth 3 and 4 around a wallet of the
      // large preset this hop (160 nodes, 1,300 edges) was the slowest statement, after it the answer's.
      const [found, early] = await Promise.all([
        level === 0 ? hop(first.rows, perNode) : edgesTouching(frontier, perNode),
        room <= 0 ? answerRows([...visited]) : null,
      ]);
      if (early) answer = early;
      if (found.more || found.edges.length > MAX_EDGES) truncated = true;
      const next: string[] = [];
      for (const edge of found.edges.slice(0, MAX_EDGES)) {
        for (const id of [edge.source, edge.target]) {
          if (visited.has(id)) continue;
          if (visited.size >= MAX_NODES) {
            truncated = true;
            continue;
          }
          visited.add(id);
          next.push(id);
        }
        if (visited.has(edge.source) && visited.has(edge.target)) keep(edge);
      }
      frontier = next;
    }
  } else {
    (await topTrustedAgentIds(OVERVIEW_NODES, database().sql)).forEach((id) => visited.add(id));
    // a bounded count: is there any agent beyond the ones shown?
    const [beyond] = await database().sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM agents LIMIT ${OVERVIEW_NODES + 1}) a`,
    );
    truncated = Number(beyond?.n ?? 0) > visited.size;
  }
  const [among, agents] = answer ?? (await answerRows([...visited]));
  if (among.length > MAX_EDGES) truncated = true;
  among.slice(0, MAX_EDGES).forEach(keep);
  const metrics = await metricsFromRows(agents, database().sql);
  const nodes = agents
    .map((agent) => ({
      id: agent.tc_id,
      wallet_address: agent.owner_wallet,
      handle: agent.handle,
      name: agent.name,
      tier: agent.tc_tier,
      trust_score: metrics.get(agent.tc_id)?.trust.total ?? 0,
      propagated_trust: metrics.get(agent.tc_id)?.propagatedTrust ?? 0,
    }))
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
