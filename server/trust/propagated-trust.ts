import { sharedCache } from '../core/shared-state';
import type { Queryable } from '../core/db/sql-runner';
import type { PackedGraph } from './page-rank';
import { pageRankOffThread } from './page-rank-thread';
import { adminWallets, TRUST_SEED_WEIGHT_SQL } from './trust-counts';

// Beyond the spec: a Sybil-resistant score beside the spec's additive one. Personalised PageRank
// over trust edges, restarting at verified agents (weight 3) and established ones (weight 1: a
// tier, or a month of age). Trust flows only along endorsements and attestations, in proportion
// to their strength and to the endorser's own score, so a ring of fresh wallets endorsing one
// another, unreachable from the seeds, ends near zero however many endorsements it trades.
// Scores are scaled 0-100 (the best-trusted agent is 100). The propagate-trust job computes them
// in the background, never in a request, ranking in a worker thread (100k agents and 1M edges: a run
// of 1.8-2.4 s that holds the event loop at most 73 ms, docs/architecture.md), and stores them in
// agent_stats.propagated_trust, which every view reads.

// Set after a run, dropped by a change of the ranking's inputs: while it stands, a run has nothing to do. Those
// inputs are the edges of type trust, the agents and each one's restart weight, and only they send `rank` notices
// (migrations rank_input_notices and rank_notices): a bio or price edit, a partnership edge (a first call between
// two agents) or a collaboration edge runs nothing. An agent crossing its month of age changes no row: the entry's
// 10 minutes bound that staleness. A run that fails, or that scored an agent whose agent_stats row the refresh job
// has not written yet, leaves it dropped: the next minute runs again.
const upToDate = sharedCache<true>('trust.propagated-up-to-date', {
  ttlMs: 10 * 60_000,
  maxEntries: 1,
  dropOn: ['rank'],
});

/** Each column's bytes as hex text: node-pg and PGlite both decode that natively (PGlite decodes bytea byte by byte). */
interface GraphRow {
  ids: string | null;
  restart: string | null;
  src: string | null;
  dst: string | null;
  weight: string | null;
}

/**
 * The whole trust graph in one statement (one snapshot) and one row: node ids (16 bytes each) in index order, their
 * restart weights, and the edges as three aligned columns of indexes and weights, each packed as bytes
 * (page-rank.ts, PackedGraph), sent as hex. At 100k agents and 1M edges that is 60 MB of hex that Buffer.from
 * decodes at once, where the same arrays as text took 0.5 s of parsing on the event loop (row objects with uuid
 * strings took over 300 MB of heap).
 */
async function readTrustGraph(runner: Queryable): Promise<PackedGraph & { ids: Buffer }> {
  const [row] = await runner.query<GraphRow>(
    `WITH n AS (
       SELECT a.id, (row_number() OVER (ORDER BY a.id) - 1)::int AS i, (${TRUST_SEED_WEIGHT_SQL})::float8 AS restart
       FROM agents a),
     e AS (
       SELECT s.i AS src, t.i AS dst, e.strength::float8 AS weight
       FROM trust_edges e JOIN n s ON s.id = e.source_agent_id JOIN n t ON t.id = e.target_agent_id
       WHERE e.type = 'trust' AND e.strength > 0 AND e.source_agent_id <> e.target_agent_id)
     SELECT encode((SELECT string_agg(uuid_send(id), ''::bytea ORDER BY i) FROM n), 'hex') AS ids,
       encode((SELECT string_agg(float8send(restart), ''::bytea ORDER BY i) FROM n), 'hex') AS restart,
       encode(string_agg(int4send(e.src), ''::bytea), 'hex') AS src, encode(string_agg(int4send(e.dst), ''::bytea), 'hex') AS dst,
       encode(string_agg(float8send(e.weight), ''::bytea), 'hex') AS weight
     FROM e`,
    [adminWallets()],
  );
  const bytes = (hex: string | null | undefined) => (hex ? Buffer.from(hex, 'hex') : Buffer.alloc(0));
  const ids = bytes(row?.ids);
  return {
    ids,
    n: ids.byteLength / 16,
    restart: bytes(row?.restart),
    src: bytes(row?.src),
    dst: bytes(row?.dst),
    weight: bytes(row?.weight),
  };
}

/**
 * Recomputes every agent's propagated trust into agent_stats; returns how many agents it scored. The ranking runs
 * in a worker thread (page-rank-thread.ts): the event loop holds only the graph's bytes and the update's numbers.
 */
export async function refreshPropagatedTrust(runner: Queryable, options: { force?: boolean } = {}): Promise<number> {
  let changed = Boolean(options.force);
  await upToDate().get('all', async () => (changed = true));
  if (!changed) return 0;
  try {
    const graph = await readTrustGraph(runner);
    if (graph.n === 0) return 0;
    const scores = await pageRankOffThread(graph);
    // The ids go back as the hex they came as: agent k is bytes 16k to 16k + 15, scored scores[k]. An agent scored
    // above 0 without an agent_stats row yet (registered seconds ago) is counted: the next run writes its score.
    const [row] = await runner.query<{ unwritten: number }>(
      `WITH ids AS (SELECT decode($1, 'hex') AS b),
       v AS MATERIALIZED (
         SELECT encode(substring(ids.b FROM ((k - 1) * 16 + 1)::int FOR 16), 'hex')::uuid AS id, score
         FROM ids, unnest($2::float8[]) WITH ORDINALITY AS u(score, k)),
       written AS (
         UPDATE agent_stats s SET propagated_trust = v.score FROM v
         WHERE s.agent_id = v.id AND s.propagated_trust IS DISTINCT FROM v.score RETURNING 1)
       SELECT count(*)::int AS unwritten FROM v WHERE v.score > 0 AND NOT EXISTS (SELECT 1 FROM agent_stats s WHERE s.agent_id = v.id)`,
      [graph.ids.toString('hex'), Array.from(scores)],
    );
    if (Number(row?.unwritten ?? 0) > 0) upToDate().clear();
    return graph.n;
  } catch (error) {
    // The next run (a minute on) tries again, changes or not.
    upToDate().clear();
    throw error;
  }
}
