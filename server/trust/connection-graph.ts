import type { Address } from 'viem';
import { loadAgentMetrics } from './agent-metrics';
import { database, db } from '../core/db';
import { ApiError } from '../core/errors';
import { propagatedTrust } from './propagated-trust';
import { topTrustedAgentIds } from './trust-counts';

// Bounds that keep a dense graph at depth 4 fast: the response says when it was cut.
export const MAX_NODES = 200;
export const MAX_EDGES = 2000;
export const OVERVIEW_NODES = 50;

interface EdgeRow {
  source: string;
  target: string;
  type: 'trust' | 'collaboration' | 'partnership';
  strength: number;
}

async function edgesTouching(ids: string[], limit: number): Promise<EdgeRow[]> {
  return database().sql.query<EdgeRow>(
    `SELECT source_agent_id AS source, target_agent_id AS target, type, strength FROM trust_edges
     WHERE source_agent_id = ANY($1::uuid[]) OR target_agent_id = ANY($1::uuid[])
     ORDER BY strength DESC, source_agent_id, target_agent_id, type LIMIT ${limit}`,
    [ids],
  );
}

/** GET /api/graph/connections: the graph around a wallet's agents up to `depth` hops, or the most trusted agents. */
export async function connectionGraph(input: { wallet?: Address; depth: number }) {
  let truncated = false;
  let centers: string[] = [];
  const visited = new Set<string>();
  const edges = new Map<string, EdgeRow>();
  const keep = (edge: EdgeRow) => edges.set(`${edge.source}|${edge.target}|${edge.type}`, edge);

  if (input.wallet) {
    const agents = await db().agent.findMany({
      where: { ownerWallet: input.wallet },
      select: { id: true },
      orderBy: { createdAt: 'asc' },
    });
    if (agents.length === 0) throw new ApiError('not_found', 'No agent for this wallet');
    centers = agents.map((agent) => agent.id);
    centers.forEach((id) => visited.add(id));
    let frontier = centers;
    for (let level = 0; level < input.depth && frontier.length > 0; level++) {
      const found = await edgesTouching(frontier, MAX_EDGES + 1);
      if (found.length > MAX_EDGES) truncated = true;
      const next: string[] = [];
      for (const edge of found.slice(0, MAX_EDGES)) {
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
    (await topTrustedAgentIds(OVERVIEW_NODES)).forEach((id) => visited.add(id));
    truncated = (await db().agent.count()) > visited.size;
  }
  // Every edge among the visited nodes (a cycle or a cross-link found at the last level included).
  const ids = [...visited];
  if (ids.length) {
    const among = await database().sql.query<EdgeRow>(
      `SELECT source_agent_id AS source, target_agent_id AS target, type, strength FROM trust_edges
       WHERE source_agent_id = ANY($1::uuid[]) AND target_agent_id = ANY($1::uuid[]) LIMIT ${MAX_EDGES + 1}`,
      [ids],
    );
    if (among.length > MAX_EDGES) truncated = true;
    among.slice(0, MAX_EDGES).forEach(keep);
  }
  const [agents, metrics, propagated] = await Promise.all([
    db().agent.findMany({ where: { id: { in: ids } } }),
    loadAgentMetrics(
      ids.map((id) => ({ id })),
      database().sql,
    ),
    propagatedTrust(),
  ]);
  const nodes = agents
    .map((agent) => ({
      id: agent.id,
      wallet_address: agent.ownerWallet,
      handle: agent.handle,
      name: agent.name,
      tier: agent.tier,
      trust_score: metrics.get(agent.id)?.trust.total ?? 0,
      propagated_trust: propagated.get(agent.id) ?? 0,
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
