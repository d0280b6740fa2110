import { sharedCache } from '../core/shared-state';
import type { Queryable } from '../core/db/sql-runner';
import { trustSeeds } from './trust-counts';

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

const VERIFIED_SEED_WEIGHT = 3;

/** Restart weights by node id; without any seed every node restarts alike. */
export function personalizedPageRank(
  nodes: string[],
  edges: { source: string; target: string; weight: number }[],
  seeds: Map<string, number>,
) {
  const index = new Map(nodes.map((id, i) => [id, i]));
  const n = nodes.length;
  const restart = new Float64Array(n);
  let seedTotal = 0;
  for (const [id, weight] of seeds) {
    if (!index.has(id) || weight <= 0) continue;
    restart[index.get(id)!] = weight;
    seedTotal += weight;
  }
  if (seedTotal === 0) {
    restart.fill(1);
    seedTotal = n;
  }
  for (let i = 0; i < n; i++) restart[i]! /= seedTotal;
  // Typed arrays, share of the source's out-weight precomputed: 40 passes over 1M edges stay
  // well under a second (nested arrays of tuples took 12 s).
  const outWeight = new Float64Array(n);
  const src = new Int32Array(edges.length);
  const dst = new Int32Array(edges.length);
  const share = new Float64Array(edges.length);
  let m = 0;
  for (const edge of edges) {
    const s = index.get(edge.source);
    const t = index.get(edge.target);
    if (s === undefined || t === undefined || s === t || edge.weight <= 0) continue;
    src[m] = s;
    dst[m] = t;
    share[m] = edge.weight;
    outWeight[s]! += edge.weight;
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
  return new Map(nodes.map((id, i) => [id, max > 0 ? Math.round((rank[i]! / max) * 1000) / 10 : 0]));
}

/** Recomputes every agent's propagated trust into agent_stats; returns how many agents it scored. */
export async function refreshPropagatedTrust(runner: Queryable, options: { force?: boolean } = {}): Promise<number> {
  let changed = Boolean(options.force);
  await upToDate().get('all', async () => (changed = true));
  if (!changed) return 0;
  const [agents, edges, seeds] = await Promise.all([
    runner.query<{ id: string }>('SELECT id FROM agents'),
    runner.query<{ source: string; target: string; weight: number }>(
      `SELECT source_agent_id AS source, target_agent_id AS target, strength AS weight FROM trust_edges WHERE type = 'trust'`,
    ),
    trustSeeds(runner),
  ]);
  const scores = personalizedPageRank(
    agents.map((a) => a.id),
    edges.map((e) => ({ ...e, weight: Number(e.weight) })),
    new Map([
      ...seeds.established.map((id) => [id, 1] as const),
      ...seeds.verified.map((id) => [id, VERIFIED_SEED_WEIGHT] as const),
    ]),
  );
  await runner.query(
    `UPDATE agent_stats s SET propagated_trust = v.score
     FROM unnest($1::uuid[], $2::float8[]) AS v(id, score)
     WHERE s.agent_id = v.id AND s.propagated_trust IS DISTINCT FROM v.score`,
    [[...scores.keys()], [...scores.values()]],
  );
  return scores.size;
}
