import { sharedCache } from '../core/shared-state';
import type { Queryable } from '../core/db/sql-runner';
import { adminWallets, TRUST_SEED_WEIGHT_SQL } from './trust-counts';

// Beyond the spec: a Sybil-resistant score beside the spec's additive one. Personalised PageRank
// over trust edges, restarting at verified agents (weight 3) and established ones (weight 1: a
// tier, or a month of age). Trust flows only along endorsements and attestations, in proportion
// to their strength and to the endorser's own score, so a ring of fresh wallets endorsing one
// another, unreachable from the seeds, ends near zero however many endorsements it trades.
// Scores are scaled 0-100 (the best-trusted agent is 100). The propagate-trust job computes them
// in the background, never in a request (100k agents and 1M edges: 6.6 s of compute on the shared
// 2-core machine at load 16, docs/benchmarks-data-volume.md)
// and stores them in agent_stats.propagated_trust, which every view reads.

const DAMPING = 0.85;
const ITERATIONS = 40;
// Set after a run, dropped by any agent or trust change: while it stands, a run has nothing to do.
const upToDate = sharedCache<true>('trust.propagated-up-to-date', {
  ttlMs: 10 * 60_000,
  maxEntries: 1,
  dropOn: ['agent', 'trust'],
});

/** The trust graph by node index: edge k runs from src[k] to dst[k] with weight[k]; restart[i] is node i's seed weight. */
export interface TrustGraph {
  n: number;
  src: ArrayLike<number>;
  dst: ArrayLike<number>;
  weight: ArrayLike<number>;
  restart: ArrayLike<number>;
}

/** Scores 0-100 by node index (one decimal; the best-trusted node is 100). Without any seed every node restarts alike. */
export function personalizedPageRank(graph: TrustGraph): Float64Array {
  const { n } = graph;
  const restart = new Float64Array(n);
  let seedTotal = 0;
  for (let i = 0; i < n; i++) {
    const weight = graph.restart[i]!;
    if (weight > 0) {
      restart[i] = weight;
      seedTotal += weight;
    }
  }
  if (seedTotal === 0) {
    restart.fill(1);
    seedTotal = n;
  }
  for (let i = 0; i < n; i++) restart[i]! /= seedTotal;
  // Typed arrays, share of the source's out-weight precomputed: 40 passes over 1M edges stay
  // well under a second (nested arrays of tuples took 12 s).
  const outWeight = new Float64Array(n);
  const edges = graph.src.length;
  const src = new Int32Array(edges);
  const dst = new Int32Array(edges);
  const share = new Float64Array(edges);
  let m = 0;
  for (let k = 0; k < edges; k++) {
    const s = graph.src[k]!;
    const t = graph.dst[k]!;
    const weight = graph.weight[k]!;
    if (s === t || !(weight > 0) || s < 0 || t < 0 || s >= n || t >= n) continue;
    src[m] = s;
    dst[m] = t;
    share[m] = weight;
    outWeight[s]! += weight;
    m++;
  }
  for (let k = 0; k < m; k++) share[k]! /= outWeight[src[k]!]!;
  let rank = Float64Array.from(restart);
  let next = new Float64Array(n);
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    next.fill(0);
    let dangling = 0;
    for (let i = 0; i < n; i++) if (outWeight[i] === 0) dangling += rank[i]!;
    for (let k = 0; k < m; k++) next[dst[k]!]! += DAMPING * rank[src[k]!]! * share[k]!;
    for (let i = 0; i < n; i++) next[i]! += (1 - DAMPING + DAMPING * dangling) * restart[i]!;
    [rank, next] = [next, rank];
  }
  const max = rank.reduce((m, v) => Math.max(m, v), 0);
  for (let i = 0; i < n; i++) rank[i] = max > 0 ? Math.round((rank[i]! / max) * 1000) / 10 : 0;
  return rank;
}

interface GraphRow {
  ids: string[] | null;
  restart: number[] | null;
  src: number[] | null;
  dst: number[] | null;
  weight: number[] | null;
}

/**
 * The whole trust graph in one statement (one snapshot) and one row: node ids in index order, their restart
 * weights, and the edges as three aligned arrays of indexes and weights. Arrays of numbers, not a row per
 * edge: at 100k agents and 1M edges the job's heap stays tens of MB (row objects with uuid strings took
 * over 300 MB).
 */
async function readTrustGraph(runner: Queryable): Promise<TrustGraph & { ids: string[] }> {
  const [row] = await runner.query<GraphRow>(
    `WITH n AS (
       SELECT a.id, (row_number() OVER (ORDER BY a.id) - 1)::int AS i, (${TRUST_SEED_WEIGHT_SQL})::float8 AS restart
       FROM agents a),
     e AS (
       SELECT s.i AS src, t.i AS dst, e.strength::float8 AS weight
       FROM trust_edges e JOIN n s ON s.id = e.source_agent_id JOIN n t ON t.id = e.target_agent_id
       WHERE e.type = 'trust' AND e.strength > 0 AND e.source_agent_id <> e.target_agent_id)
     SELECT (SELECT array_agg(id::text ORDER BY i) FROM n) AS ids, (SELECT array_agg(restart ORDER BY i) FROM n) AS restart,
       array_agg(e.src) AS src, array_agg(e.dst) AS dst, array_agg(e.weight) AS weight
     FROM e`,
    [adminWallets()],
  );
  const ids = row?.ids ?? [];
  return {
    ids,
    n: ids.length,
    restart: row?.restart ?? [],
    src: row?.src ?? [],
    dst: row?.dst ?? [],
    weight: row?.weight ?? [],
  };
}

/** Recomputes every agent's propagated trust into agent_stats; returns how many agents it scored. */
export async function refreshPropagatedTrust(runner: Queryable, options: { force?: boolean } = {}): Promise<number> {
  let changed = Boolean(options.force);
  await upToDate().get('all', async () => (changed = true));
  if (!changed) return 0;
  const graph = await readTrustGraph(runner);
  const scores = personalizedPageRank(graph);
  await runner.query(
    `UPDATE agent_stats s SET propagated_trust = v.score
     FROM unnest($1::uuid[], $2::float8[]) AS v(id, score)
     WHERE s.agent_id = v.id AND s.propagated_trust IS DISTINCT FROM v.score`,
    [graph.ids, Array.from(scores)],
  );
  return graph.n;
}
