import type { Address } from 'viem';
import { ConcurrencyGate, GateFullError } from '../core/concurrency-gate';
import { database } from '../core/db';
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
import { edgeIndex, type Edge, type EdgeIndex, type EdgeType } from './edge-index';

// Bounds that keep a dense graph at depth 4 fast: the response says when it was cut. Each hop
// follows at most EDGES_PER_NODE of a node's strongest edges each way (the edge index keeps each
// node's edges strongest first), so a hub with 50,000 endorsers costs what any node costs.
export const MAX_NODES = 200;
export const MAX_EDGES = 2000;
export const OVERVIEW_NODES = 50;
export const EDGES_PER_NODE = 25;

// At most GRAPH_CONCURRENCY graph computations run at once (each reads its centers, then its
// nodes; the first after start may wait for the edge index to load), GRAPH_QUEUE more wait; past
// that a request gets 503 with Retry-After at once, so 50 graph requests in flight leave the rest
// of the pool to every other read. Identical requests in flight share one computation, and answers
// are kept GRAPH_TTL_MS (dropped on any trust, agent or edge change anywhere), so a popular graph
// costs one computation per change.
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
  dropOn: ['trust', 'agent', 'edge'],
});
const gate = sharedState('trust.connection-graph.gate', () => new ConcurrencyGate(GRAPH_CONCURRENCY, GRAPH_QUEUE));

interface EdgeRow {
  source: string;
  target: string;
  type: EdgeType;
  strength: number;
}

/** A node of the answer: its agent's columns and its maintained trust counts (trust-counts.ts). */
interface NodeRow extends TrustCountRow {
  owner_wallet: string;
  handle: string;
  name: string;
}

/** What the walk found: the nodes in the order they joined, the edges it followed that join two of them, whether a bound cut something. */
interface Walk {
  nodes: string[];
  kept: Edge[];
  truncated: boolean;
}

/** How many of a frontier node's strongest edges each way a hop follows: enough to fill the room left, 3 to EDGES_PER_NODE. */
function perNodeFor(room: number, frontier: number): number {
  return Math.max(3, Math.min(EDGES_PER_NODE, Math.ceil((2 * room) / frontier)));
}

/** The wallet's agents, oldest first: at most MAX_NODES + 1 (one more says there were too many). */
async function centersOf(wallet: string): Promise<string[]> {
  const rows = await database().sql.query<{ id: string }>(
    `SELECT id FROM agents WHERE owner_wallet = $1 ORDER BY created_at, id LIMIT ${MAX_NODES + 1}`,
    [wallet],
    { prepare: true },
  );
  return rows.map((row) => row.id);
}

/**
 * Breadth-first from the centers, `depth` hops, over the edge index (edge-index.ts). A hop reads each frontier
 * node's perNodeFor() + 1 strongest edges each way, of which those ranked past EDGES_PER_NODE only say the graph
 * was cut; it follows the first MAX_EDGES of them, strongest first; their new endpoints join in the order they first
 * appear until MAX_NODES.
 */
function walkFrom(index: EdgeIndex, centers: string[], depth: number): Walk {
  const walk: Walk = { nodes: [...centers], kept: [], truncated: false };
  const visited = new Set(centers);
  let frontier = centers;
  for (let level = 1; level <= depth && frontier.length > 0; level++) {
    const room = MAX_NODES - visited.size; // the centers are capped at MAX_NODES
    const perNode = perNodeFor(room, frontier.length);
    const reads = index.hop(frontier, perNode + 1, EDGES_PER_NODE, MAX_EDGES);
    if (room === 0 && perNode < EDGES_PER_NODE && 2 * (perNode + 1) * frontier.length <= MAX_EDGES) {
      // The graph is full: this hop can add no node, and the edges it would keep join visited nodes, which the
      // answer has anyway (every edge among the nodes, strongest first). All it can tell is whether a node was left
      // out (it reads no edge past EDGES_PER_NODE, nor more than MAX_EDGES).
      walk.truncated ||= reads.edges.some((edge) => !visited.has(edge[0]) || !visited.has(edge[1]));
      break;
    }
    if (reads.cut) walk.truncated = true;
    const admitted: string[] = [];
    for (const edge of reads.edges) {
      for (const end of [edge[0], edge[1]]) {
        if (visited.has(end)) continue;
        if (admitted.length < room) {
          visited.add(end);
          admitted.push(end);
        } else walk.truncated = true;
      }
    }
    for (const edge of reads.edges) if (visited.has(edge[0]) && visited.has(edge[1])) walk.kept.push(edge);
    walk.nodes.push(...admitted);
    frontier = admitted;
  }
  return walk;
}

/** The answer's nodes: their agents' columns and trust counts, in one statement answering one JSON value. */
async function nodesOf(ids: string[]): Promise<NodeRow[]> {
  const [row] = await database().sql.query<{ rows: NodeRow[] }>(
    `SELECT coalesce(json_agg(r), '[]') AS rows FROM (
       SELECT a.owner_wallet, a.handle, a.name, ${TRUST_COUNT_COLUMNS}
       FROM agents a ${TRUST_COUNT_JOINS} WHERE a.id = ANY($1::uuid[])) r`,
    [ids],
    { prepare: true },
  );
  return row!.rows;
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

  let ids: string[];
  let index: EdgeIndex;
  if (input.wallet) {
    const found = await centersOf(input.wallet);
    if (found.length === 0) throw new ApiError('not_found', 'No agent for this wallet');
    index = await edgeIndex().ready();
    // A wallet with more than MAX_NODES agents: its oldest MAX_NODES are the centers, and the graph says it was cut.
    centers = found.slice(0, MAX_NODES);
    const walk = walkFrom(index, centers, input.depth);
    truncated = walk.truncated || found.length > MAX_NODES;
    for (const [source, target, type, strength] of walk.kept) keep({ source, target, type, strength });
    ids = walk.nodes;
  } else {
    [ids, index] = await Promise.all([topTrustedAgentIds(OVERVIEW_NODES, database().sql), edgeIndex().ready()]);
    // a bounded count: is there any agent beyond the ones shown?
    const [beyond] = await database().sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM agents LIMIT ${OVERVIEW_NODES + 1}) a`,
    );
    truncated = Number(beyond?.n ?? 0) > ids.length;
  }
  // The walk's edges first (they join the graph up), then the strongest others among its nodes, to MAX_EDGES.
  const among = index.among(ids, MAX_EDGES);
  const agents = await nodesOf(ids);
  truncated ||= among.cut;
  for (const [source, target, type, strength] of among.edges) {
    if (edges.size >= MAX_EDGES) {
      truncated ||= !edges.has(`${source}|${target}|${type}`);
      continue;
    }
    keep({ source, target, type, strength });
  }
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
