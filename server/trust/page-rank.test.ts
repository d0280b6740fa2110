import { describe, expect, it } from 'vitest';
import { personalizedPageRank, unpackGraph, type PackedGraph } from './page-rank';
import { pageRankOffThread } from './page-rank-thread';

/** Packs as the database does (int4send, float8send: big-endian). */
function pack(n: number, restart: number[], edges: [number, number, number][]): PackedGraph {
  const bytes = (size: number, values: number[], write: (view: DataView, offset: number, value: number) => void) => {
    const out = new Uint8Array(values.length * size);
    const view = new DataView(out.buffer);
    values.forEach((value, i) => write(view, i * size, value));
    return out;
  };
  const f64 = (view: DataView, offset: number, value: number) => view.setFloat64(offset, value, false);
  const i32 = (view: DataView, offset: number, value: number) => view.setInt32(offset, value, false);
  return {
    n,
    restart: bytes(8, restart, f64),
    src: bytes(
      4,
      edges.map((e) => e[0]),
      i32,
    ),
    dst: bytes(
      4,
      edges.map((e) => e[1]),
      i32,
    ),
    weight: bytes(
      8,
      edges.map((e) => e[2]),
      f64,
    ),
  };
}

describe('packed graphs', () => {
  const edges: [number, number, number][] = [
    [0, 1, 0.5],
    [1, 2, 1],
    [2, 1, 0.25],
    [3, 2, 0.75],
    [4, 3, 1],
  ];

  it('unpack to the indexes and weights the database packed', () => {
    const graph = unpackGraph(pack(5, [3, 0, 1, 0, 0], edges));
    expect(graph.n).toBe(5);
    expect(Array.from(graph.restart)).toEqual([3, 0, 1, 0, 0]);
    expect(Array.from(graph.src)).toEqual([0, 1, 2, 3, 4]);
    expect(Array.from(graph.dst)).toEqual([1, 2, 1, 2, 3]);
    expect(Array.from(graph.weight)).toEqual([0.5, 1, 0.25, 0.75, 1]);
  });

  it('rank in a worker thread exactly as in this one', async () => {
    const packed = pack(5, [3, 0, 1, 0, 0], edges);
    const here = personalizedPageRank(unpackGraph(packed));
    const there = await pageRankOffThread(pack(5, [3, 0, 1, 0, 0], edges));
    expect(Array.from(there)).toEqual(Array.from(here));
    expect(Math.max(...there)).toBe(100);
  });

  it('rank a graph without edges in a worker thread (its three empty columns may be one buffer)', async () => {
    const none = new Uint8Array(0);
    const packed = { n: 3, restart: pack(3, [1, 0, 0], []).restart, src: none, dst: none, weight: none };
    const here = Array.from(personalizedPageRank(unpackGraph(packed)));
    expect(Array.from(await pageRankOffThread(packed))).toEqual(here);
  });
});
