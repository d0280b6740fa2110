import type { Queryable } from '../core/db/sql-runner';
import type { Runtime } from '../core/runtime';
import { sharedState } from '../core/shared-state';

// Every connection of the trust graph, held by each instance in memory for the connection graph's walk
// (connection-graph.ts): each agent's edges out and in, strongest first. Reading them from the edge indexes took a
// graph at depth 2 two statements and about 450 index pages at random (89 and 92 MB of indexes, more than PostgreSQL's
// default 128 MB of shared buffers keeps): 2-4 ms of each graph, most of it the pages a first visit reads. Here the
// walk and the edges among its nodes take well under a millisecond, and the graph's one statement left reads its nodes.
//
// Loaded whole when a serving process starts (server.ts) or on first use, in one statement: every agent's id in id
// order, and every edge as 18 bytes (its ends' numbers, strength, type), unordered, in rows of LOAD_ROW_AGENTS
// sources' edges; the lists are sorted here, in steps that let the event loop run. Kept exact by the change notices
// every edge change sends with its target's id (`trust` for an edge added or removed or a trust edge's strength,
// `edge` for another type's strength: migrations change_notices, edge_strength_notices): a notice marks its agent,
// and the next reader first re-reads the edges into the marked agents, in one statement, which also corrects the
// other ends' lists. The instance that writes an edge hears the notice before its statement returns
// (server/core/changes.ts), so its next graph sees it; others within the notice's delivery. A lost listening
// connection (a notice with no id) reloads everything, and so do more marks than MAX_MARKED or more re-read lists
// than agents. At 100,000 agents and 1,000,000 edges the index holds about 40 MB and loads in 1.6-1.8 s (1.2 s of it
// the statement). At ten times that size the rows stay bounded, but the index would hold about 270 MB a process.

/** An edge's type; their order is the answers' (the order of the type names). */
export const EDGE_TYPES = ['collaboration', 'partnership', 'trust'] as const;
export type EdgeType = (typeof EDGE_TYPES)[number];

/** An edge: [source agent id, target agent id, type, strength]. */
export type Edge = [string, string, EdgeType, number];

/** One agent's edges one way (the other ends, as node numbers), strongest first, then by the other end's id and type. */
interface Side {
  other: Int32Array;
  strength: Float64Array;
  type: Uint8Array;
}

/** Every node's edges one way, packed: node i's are entries start[i] to start[i + 1] - 1. */
interface Packed extends Side {
  start: Int32Array;
}

/** One edge of a list, unpacked: its other end, type and strength. */
interface Entry {
  other: number;
  type: number;
  strength: number;
}

const OUT = 0;
const IN = 1;
type Direction = typeof OUT | typeof IN;

const NO_EDGES: Side = { other: new Int32Array(0), strength: new Float64Array(0), type: new Uint8Array(0) };
const EMPTY: Packed = { ...NO_EDGES, start: new Int32Array(1) };
/** Agents marked past which the next reader loads everything again instead. */
const MAX_MARKED = 5_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The types as numbers (their place in EDGE_TYPES), in SQL. */
const TYPE_NUMBER = `CASE e.type WHEN 'collaboration' THEN 0 WHEN 'partnership' THEN 1 ELSE 2 END`;
const KNOWN_TYPE = `e.type IN ('collaboration', 'partnership', 'trust')`;
/** Bytes of one packed edge: source and target numbers (int4), strength (float8), type (int2). */
const EDGE_BYTES = 18;
/** Sources whose edges one row of the load carries (hundreds of thousands of edges at the large preset's density). */
const LOAD_ROW_AGENTS = 16_384;

/**
 * Packs edges by one end (`node`): each node's list strongest first, then by the other end's number (its id's order)
 * and type. A counting sort by node, then each list of two or more sorted on its own (10 edges on average).
 */
function pack(nodes: number, node: Int32Array, other: Int32Array, strength: Float64Array, type: Uint8Array): Packed {
  const count = node.length;
  const start = new Int32Array(nodes + 1);
  for (let e = 0; e < count; e++) start[node[e]! + 1]!++;
  for (let i = 0; i < nodes; i++) start[i + 1]! += start[i]!;
  const next = start.slice(0, nodes);
  const order = new Int32Array(count);
  for (let e = 0; e < count; e++) order[next[node[e]!]!++] = e;
  const compare = (a: number, b: number) => strength[b]! - strength[a]! || other[a]! - other[b]! || type[a]! - type[b]!;
  for (let i = 0; i < nodes; i++) if (start[i + 1]! - start[i]! > 1) order.subarray(start[i], start[i + 1]).sort(compare);
  const packed: Packed = { start, other: new Int32Array(count), strength: new Float64Array(count), type: new Uint8Array(count) };
  for (let at = 0; at < count; at++) {
    const e = order[at]!;
    packed.other[at] = other[e]!;
    packed.strength[at] = strength[e]!;
    packed.type[at] = type[e]!;
  }
  return packed;
}

/** Lets the event loop run between the load's steps (each 0.1-0.2 s at 1,000,000 edges). */
const breather = () => new Promise<void>((resolve) => setImmediate(resolve));

export class EdgeIndex {
  /** Agent ids by node number: the loaded ones in id order, then those met since, in the order met. */
  private ids: string[] = [];
  private numbers = new Map<string, number>();
  /** Nodes numbered by the load (in id order): comparing two of them compares their ids. */
  private ordered = 0;
  private packed: [Packed, Packed] = [EMPTY, EMPTY];
  /** Lists re-read since the load, which replace the packed ones. */
  private patched: [Map<number, Side>, Map<number, Side>] = [new Map(), new Map()];
  private loaded = false;
  private reload = false;
  /** Agents whose edges in changed since they were read. */
  private marked = new Set<string>();
  /** Notices heard, and how many of them the index reflects. */
  private heard = 0;
  private applied = 0;
  private pass: Promise<void> | null = null;

  constructor(private readonly runner: () => Queryable) {}

  /** Heeds one change notice: its agent's edges in are re-read before the next answer; no agent, everything. */
  notice(id: string | null): void {
    if (id === null) this.reload = true;
    else if (!UUID.test(id)) return;
    else if (this.marked.add(id).size > MAX_MARKED) {
      // So many agents changed before a graph asked (an instance that serves none, a bulk change) that loading
      // everything costs less than re-reading them; it also bounds what is kept until then.
      this.marked.clear();
      this.reload = true;
    }
    this.heard++;
  }

  /** The index once it reflects every notice heard before the call (loading it first, the first time). */
  async ready(): Promise<this> {
    const wanted = this.heard;
    while (!this.loaded || this.applied < wanted) await (this.pass ??= this.catchUp().finally(() => (this.pass = null)));
    return this;
  }

  /**
   * A hop's reads around `frontier`: each node's `limit` strongest edges out and in, of which those ranked past
   * `followed` are only a sign that the graph was cut; the others strongest first (then by source, target and
   * type), at most `max` of them and whether more were left out.
   */
  hop(frontier: readonly string[], limit: number, followed: number, max: number): { cut: boolean; edges: Edge[] } {
    const found: number[][] = [];
    let cut = false;
    for (const id of frontier) {
      const node = this.numbers.get(id);
      if (node === undefined) continue;
      for (const direction of [OUT, IN] as const) {
        const { other, strength, type, from, to } = this.side(direction, node);
        const read = Math.min(limit, to - from);
        if (read > followed) cut = true;
        for (let r = from; r < from + Math.min(read, followed); r++) {
          found.push(direction === OUT ? [node, other[r]!, type[r]!, strength[r]!] : [other[r]!, node, type[r]!, strength[r]!]);
        }
      }
    }
    return this.edges(found, max, cut);
  }

  /** Every edge between two of `ids`, strongest first (then by source, target and type): at most `max`, and whether more exist. */
  among(ids: readonly string[], max: number): { cut: boolean; edges: Edge[] } {
    const members = new Set<number>();
    for (const id of ids) {
      const node = this.numbers.get(id);
      if (node !== undefined) members.add(node);
    }
    const found: number[][] = [];
    for (const node of members) {
      const { other, strength, type, from, to } = this.side(OUT, node);
      for (let r = from; r < to; r++) if (members.has(other[r]!)) found.push([node, other[r]!, type[r]!, strength[r]!]);
    }
    return this.edges(found, max, false);
  }

  private edges(found: number[][], max: number, cut: boolean): { cut: boolean; edges: Edge[] } {
    found.sort((a, b) => b[3]! - a[3]! || this.compare(a[0]!, b[0]!) || this.compare(a[1]!, b[1]!) || a[2]! - b[2]!);
    return {
      cut: cut || found.length > max,
      edges: found
        .slice(0, max)
        .map(([source, target, type, strength]) => [this.ids[source!]!, this.ids[target!]!, EDGE_TYPES[type!]!, strength!]),
    };
  }

  /** Orders two nodes by their agents' ids (as SQL orders uuids). */
  private compare(a: number, b: number): number {
    if (a < this.ordered && b < this.ordered) return a - b;
    const x = this.ids[a]!;
    const y = this.ids[b]!;
    return x < y ? -1 : x > y ? 1 : 0;
  }

  /** A node's edges one way: entries `from` to `to` - 1 of the arrays (its packed list's, or the list re-read). */
  private side(direction: Direction, node: number): Side & { from: number; to: number } {
    const patched = this.patched[direction].get(node);
    if (patched) return { ...patched, from: 0, to: patched.other.length };
    if (node >= this.ordered) return { ...NO_EDGES, from: 0, to: 0 };
    const { start, other, strength, type } = this.packed[direction];
    return { other, strength, type, from: start[node]!, to: start[node + 1]! };
  }

  private number(id: string): number {
    let node = this.numbers.get(id);
    if (node === undefined) {
      node = this.ids.push(id) - 1;
      this.numbers.set(id, node);
    }
    return node;
  }

  /** One pass: everything loaded again when asked (or patched lists outnumber the agents), else the marked agents re-read. */
  private async catchUp(): Promise<void> {
    const upTo = this.heard;
    const marked = this.marked;
    this.marked = new Set();
    const reload =
      !this.loaded || this.reload || this.patched[OUT].size + this.patched[IN].size > Math.max(10_000, this.ids.length);
    this.reload = false;
    try {
      // A load's snapshot is taken after the marks were cleared: it holds every change they named.
      if (reload) await this.load();
      else if (marked.size > 0) await this.reread([...marked]);
    } catch (error) {
      // Nothing asked for is forgotten: the next reader tries again.
      for (const id of marked) this.marked.add(id);
      this.reload ||= reload;
      throw error;
    }
    this.applied = upTo;
  }

  private async load(): Promise<void> {
    // Every agent numbered in id order (so comparing numbers compares ids), and every edge as 18 bytes: source and
    // target numbers, strength, type. Unordered: sorting a million edges took the database 1.4 s more than sorting
    // each agent's list here. The edges come in rows of LOAD_ROW_AGENTS sources each (7 at the large preset): one
    // row of 36 MB of text had node-postgres grow its receive buffer to 64 MB, beside the text and its bytes.
    const rows = await this.runner().query<{ ids: string | null; edges: string | null }>(
      `WITH n AS MATERIALIZED (SELECT id, (row_number() OVER (ORDER BY id) - 1)::int AS i FROM agents)
       SELECT (SELECT string_agg(id::text, '' ORDER BY i) FROM n) AS ids, NULL AS edges
       UNION ALL
       SELECT NULL, encode(string_agg(int4send(s.i) || int4send(t.i) || float8send(e.strength::float8) || int2send((${TYPE_NUMBER})::int2), ''::bytea), 'hex')
       FROM trust_edges e JOIN n s ON s.id = e.source_agent_id JOIN n t ON t.id = e.target_agent_id
       WHERE ${KNOWN_TYPE} GROUP BY s.i / ${LOAD_ROW_AGENTS}`,
    );
    const idText = rows.find((row) => row.ids !== null)?.ids ?? '';
    const nodes = idText.length / 36;
    const count = rows.reduce((sum, row) => sum + (row.edges?.length ?? 0) / (2 * EDGE_BYTES), 0);
    const source = new Int32Array(count);
    const target = new Int32Array(count);
    const strength = new Float64Array(count);
    const type = new Uint8Array(count);
    let e = 0;
    for (const row of rows) {
      if (row.edges === null) continue;
      const bytes = Buffer.from(row.edges, 'hex');
      row.edges = null;
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      for (let at = 0; at < bytes.byteLength; at += EDGE_BYTES, e++) {
        source[e] = view.getInt32(at);
        target[e] = view.getInt32(at + 4);
        strength[e] = view.getFloat64(at + 8);
        type[e] = view.getInt16(at + 16);
      }
    }
    await breather();
    const out = pack(nodes, source, target, strength, type);
    await breather();
    const into = pack(nodes, target, source, strength, type);
    // Nothing changes the index between the statement and here but this (one load runs at a time, and notices only mark).
    // Slices of the one text (36 characters an id): 100,000 ids in 7 MB, where strings built from their bytes took 30 MB.
    this.ids = Array.from({ length: nodes }, (_, i) => idText.slice(i * 36, i * 36 + 36));
    this.numbers = new Map(this.ids.map((id, i) => [id, i]));
    this.ordered = nodes;
    this.packed = [out, into];
    this.patched = [new Map(), new Map()];
    this.loaded = true;
  }

  /** Reads the edges into `targets` again: their lists in, and the lists out of each source whose edge to one changed. */
  private async reread(targets: string[]): Promise<void> {
    const rows = await this.runner().query<{ source: string; target: string; type: number; strength: number }>(
      `SELECT e.source_agent_id AS source, e.target_agent_id AS target, (${TYPE_NUMBER})::int AS type, e.strength::float8 AS strength
       FROM trust_edges e WHERE e.target_agent_id = ANY($1::uuid[]) AND ${KNOWN_TYPE}`,
      [targets],
    );
    // Each target's edges in, as entries of its list (the other end: the source).
    const into = new Map<string, Entry[]>(targets.map((id) => [id, []]));
    for (const row of rows) {
      into.get(row.target)?.push({ other: this.number(row.source), type: Number(row.type), strength: Number(row.strength) });
    }
    // The new lists in; and for each source whose edges to a target were added, removed or changed, those targets
    // and its edges to them now, so that each source's list out is rebuilt once (an endorser re-judged changes its
    // edges into every agent it endorsed at once).
    const changed = new Map<number, Map<number, Entry[]>>();
    for (const [id, edges] of into) {
      if (edges.length === 0 && !this.numbers.has(id)) continue;
      const target = this.number(id);
      const before = this.side(IN, target);
      const was = new Map<string, number>();
      for (let r = before.from; r < before.to; r++) was.set(`${before.other[r]}:${before.type[r]}`, before.strength[r]!);
      const sources = new Set<number>();
      for (const edge of edges) {
        const key = `${edge.other}:${edge.type}`;
        if (was.get(key) !== edge.strength) sources.add(edge.other);
        was.delete(key);
      }
      for (const key of was.keys()) sources.add(Number(key.slice(0, key.indexOf(':'))));
      for (const source of sources) {
        let targets = changed.get(source);
        if (!targets) changed.set(source, (targets = new Map()));
        targets.set(
          target,
          edges.filter((edge) => edge.other === source).map((edge) => ({ ...edge, other: target })),
        );
      }
      this.patched[IN].set(target, this.sorted(edges));
    }
    for (const [source, targets] of changed) {
      const out = this.side(OUT, source);
      const entries: Entry[] = [];
      for (let r = out.from; r < out.to; r++) {
        if (!targets.has(out.other[r]!)) entries.push({ other: out.other[r]!, type: out.type[r]!, strength: out.strength[r]! });
      }
      for (const now of targets.values()) entries.push(...now);
      this.patched[OUT].set(source, this.sorted(entries));
    }
  }

  private sorted(entries: Entry[]): Side {
    entries.sort((a, b) => b.strength - a.strength || this.compare(a.other, b.other) || a.type - b.type);
    return {
      other: Int32Array.from(entries, (entry) => entry.other),
      strength: Float64Array.from(entries, (entry) => entry.strength),
      type: Uint8Array.from(entries, (entry) => entry.type),
    };
  }
}

/** The running instance's edge index, kept by the change notices of edges (`trust`, `edge`) from its creation on. */
export const edgeIndex = sharedState('trust.edge-index', (runtime: Runtime) => {
  const index = new EdgeIndex(() => runtime.database.sql);
  for (const kind of ['trust', 'edge'] as const) {
    const stop = runtime.changes.on(kind, (notice) => index.notice(notice.id));
    runtime.onClose(stop);
  }
  return index;
});
