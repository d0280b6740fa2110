// Personalised PageRank over the trust graph (propagated-trust.ts says what it scores and why), as a pure
// function of typed arrays, so that it runs in a worker thread (page-rank-thread.ts): at 100k agents and
// 1M edges it is most of a second of compute, which held the event loop, and every request with it.

const DAMPING = 0.85;
const ITERATIONS = 40;

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

/**
 * The graph as the database packs it (propagated-trust.ts, readTrustGraph): big-endian bytes, as uuid_send, int4send
 * and float8send write them: restart weights as float8 per node, and per edge its source and target index (int4)
 * and weight (float8).
 */
export interface PackedGraph {
  n: number;
  restart: Uint8Array;
  src: Uint8Array;
  dst: Uint8Array;
  weight: Uint8Array;
}

function int32s(bytes: Uint8Array): Int32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Int32Array(bytes.byteLength >> 2);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt32(i * 4, false);
  return out;
}

function float64s(bytes: Uint8Array): Float64Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float64Array(bytes.byteLength >> 3);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat64(i * 8, false);
  return out;
}

/** The graph of packed bytes as typed arrays. */
export function unpackGraph(packed: PackedGraph): TrustGraph {
  return {
    n: packed.n,
    restart: float64s(packed.restart),
    src: int32s(packed.src),
    dst: int32s(packed.dst),
    weight: float64s(packed.weight),
  };
}
