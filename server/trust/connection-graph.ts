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

/**
 * What vs_graph_walk (migration 20261126110000_graph_walk) returns, with the wallet's agents (the centers), as one
 * JSON value: the server parses it natively, where a row of uuid and text arrays took a millisecond of JavaScript.
 * `kept` holds the edges the walk kept, in the order found, as [source, target, type, strength].
 */
interface WalkRow {
  centers: string[] | null;
  nodes: string[] | null;
  kept: [string, string, EdgeRow['type'], number][] | null;
  truncated: boolean | null;
}

/**
 * The wallet's agents (the centers, oldest first) and the walk from them, in one statement: the database runs
 * every hop (vs_graph_walk), so the edges each hop reads (1,400 at the third hop around a wallet of the large
 * preset) stay there; what comes back is the nodes, the edges the walk kept and whether it was cut.
 */
async function walkFrom(wallet: string, depth: number): Promise<WalkRow> {
  const [row] = await database().sql.query<{ walk: WalkRow }>(
    `WITH c AS MATERIALIZED (SELECT array_agg(id ORDER BY created_at, id) AS centers FROM agents WHERE owner_wallet = $1)
     SELECT json_build_object('centers', c.centers, 'nodes', w.nodes, 'truncated', w.truncated, 'kept',
       (SELECT json_agg(json_build_array(k.source, k.target, k.type, k.strength) ORDER BY k.pos)
        FROM unnest(w.kept_source, w.kept_target, w.kept_type, w.kept_strength) WITH ORDINALITY AS k(source, target, type, strength, pos))) AS walk
     FROM c LEFT JOIN LATERAL vs_graph_walk(c.centers, $2::int, ${MAX_NODES}, ${EDGES_PER_NODE}, ${MAX_EDGES}) w
       ON c.centers IS NOT NULL`,
    [wallet, depth],
    { prepare: true },
  );
  return row!.walk;
}

/**
 * The answer once its nodes are known: two statements side by side (a wait of one, 2-3 ms each on the large
 * preset; as one statement they took their sum).
 */
async function answerAround(ids: string[]): Promise<AnswerRow> {
  const { sql } = database();
  const [among, nodes] = await Promise.all([
    sql.query<EdgeRow>(
      // a join, not two ANY filters on one scan: 2 ms instead of 14 ms for 200 nodes around a hub
      `WITH n AS MATERIALIZED (SELECT DISTINCT unnest($1::uuid[]) AS id)
       SELECT e.source_agent_id AS source, e.target_agent_id AS target, e.type, e.strength
       FROM n JOIN trust_edges e ON e.source_agent_id = n.id WHERE e.target_agent_id IN (SELECT id FROM n)
       ORDER BY e.strength DESC, e.source_agent_id, e.target_agent_id, e.type LIMIT ${MAX_EDGES + 1}`,
      [ids],
      { prepare: true },
    ),
    sql.query<NodeRow>(
      `SELECT a.owner_wallet, a.handle, a.name, ${TRUST_COUNT_COLUMNS}
       FROM agents a ${TRUST_COUNT_JOINS} WHERE a.id = ANY($1::uuid[])`,
      [ids],
      { prepare: true },
    ),
  ]);
  return { among, nodes };
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

async function computeConnectionGraph(input: { wallet?: Address; depth: number }) {
  let truncated = false;
  let centers: string[] = [];
  const edges = new Map<string, EdgeRow>();
  const keep = (edge: EdgeRow) => edges.set(`${edge.source}|${edge.target}|${edge.type}`, edge);

  let answer: AnswerRow;
  if (input.wallet) {
    const walk = await walkFrom(input.wallet, input.depth);
    if (!walk.centers?.length) throw new ApiError('not_found', 'No agent for this wallet');
    centers = walk.centers;
    truncated = walk.truncated === true;
    for (const [source, target, type, strength] of walk.kept ?? []) keep({ source, target, type, strength });
    answer = await answerAround(walk.nodes ?? centers);
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
