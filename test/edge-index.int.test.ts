import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeIndex, type Edge } from '../server/trust/edge-index';
import { startTestApp, type TestApp } from './harness';

// The connection graph's edge index (server/trust/edge-index.ts): every edge loaded once, each agent's lists
// strongest first (ties by the other end's id, then type), and kept exact by the change notices of edges: an edge
// added, re-weighted (a trust edge's `trust` notice, a partnership's `edge` notice) or removed is in the next answer
// on the instance that wrote it, and a notice with no agent (a lost listening connection) reloads everything.

let app: TestApp;
const ids: string[] = [];

/** Agents 0 to n - 1 of this file, with ids in ascending order (so the tie order is the numbering's). */
async function agents(n: number): Promise<void> {
  const rows = await app.database.sql.query<{ id: string }>(
    `INSERT INTO agents (id, owner_wallet, agent_pubkey, name, handle, updated_at)
     SELECT gen_random_uuid(), '0x' || lpad(to_hex(1000 + i), 40, '0'), 'edge-index', 'Edge index ' || i, 'edge-index-' || i, now()
     FROM generate_series(1, $1::int) i RETURNING id`,
    [n],
  );
  ids.push(...rows.map((row) => row.id).sort());
}

async function link(source: number, target: number, type: string, strength: number): Promise<void> {
  await app.database.sql.query(
    `INSERT INTO trust_edges (source_agent_id, target_agent_id, type, strength) VALUES ($1, $2, $3, $4)
     ON CONFLICT (source_agent_id, target_agent_id, type) DO UPDATE SET strength = excluded.strength`,
    [ids[source], ids[target], type, strength],
  );
}

/** The edges between the agents named, as [source, target, type, strength] with the agents' numbers. */
async function among(...agents: number[]): Promise<[number, number, string, number][]> {
  const index = await edgeIndex().ready();
  return index
    .among(
      agents.map((n) => ids[n]!),
      2000,
    )
    .edges.map(([source, target, type, strength]: Edge) => [ids.indexOf(source), ids.indexOf(target), type, strength]);
}

beforeAll(async () => {
  app = await startTestApp();
  await agents(6);
  await link(0, 1, 'trust', 0.5);
  await link(0, 2, 'trust', 0.5);
  await link(0, 3, 'trust', 0.9);
  await link(4, 0, 'partnership', 0.1);
  await link(5, 0, 'trust', 1);
});

afterAll(async () => {
  await app?.close();
});

describe('the edge index', () => {
  it('loads every edge; a hop takes each list strongest first, ties by id, and says when it left one out', async () => {
    const index = await edgeIndex().ready();
    // Out of 0: 3 (0.9), then 1 and 2 (0.5, by id); into 0: 5 (1.0), 4 (0.1). Then all of them by strength.
    const hop = index.hop([ids[0]!], 2, 25, 2000);
    expect(hop.cut).toBe(false);
    expect(hop.edges.map(([source, target]) => [ids.indexOf(source), ids.indexOf(target)])).toEqual([
      [5, 0],
      [0, 3],
      [0, 1],
      [4, 0],
    ]);
    // Two followed of each side's three read: the third only says the graph was cut.
    const cut = index.hop([ids[0]!], 3, 2, 2000);
    expect(cut.cut).toBe(true);
    expect(cut.edges).toHaveLength(4);
    // At most `max` edges, and a cut when more were found.
    expect(index.hop([ids[0]!], 3, 25, 2)).toEqual({
      cut: true,
      edges: [
        [ids[5], ids[0], 'trust', 1],
        [ids[0], ids[3], 'trust', 0.9],
      ],
    });
  });

  it('answers an edge added, re-weighted or removed after the load on the instance that wrote it', async () => {
    expect(await among(1, 2)).toEqual([]);
    await link(1, 2, 'trust', 0.4);
    expect(await among(1, 2)).toEqual([[1, 2, 'trust', 0.4]]);
    // A trust edge's new strength sends `trust`; a partnership's sends `edge` (migration edge_strength_notices).
    await link(1, 2, 'trust', 0.7);
    await link(4, 0, 'partnership', 0.3);
    expect(await among(0, 1, 2, 4)).toEqual([
      [1, 2, 'trust', 0.7],
      [0, 1, 'trust', 0.5],
      [0, 2, 'trust', 0.5],
      [4, 0, 'partnership', 0.3],
    ]);
    // The other end's list changed with it: a hop from 4 follows its edge out at its new strength.
    const index = await edgeIndex().ready();
    expect(index.hop([ids[4]!], 26, 25, 2000).edges).toEqual([[ids[4], ids[0], 'partnership', 0.3]]);
    // One statement changing a source's edges into two agents: one re-read of both, the source's list out rebuilt once.
    await app.database.sql.query(
      `UPDATE trust_edges SET strength = CASE target_agent_id WHEN $2::uuid THEN 0.95 ELSE 0.05 END
       WHERE source_agent_id = $1 AND target_agent_id IN ($2, $3) AND type = 'trust'`,
      [ids[0], ids[2], ids[3]],
    );
    expect((await edgeIndex().ready()).hop([ids[0]!], 26, 25, 2000).edges.filter(([source]) => source === ids[0])).toEqual([
      [ids[0], ids[2], 'trust', 0.95],
      [ids[0], ids[1], 'trust', 0.5],
      [ids[0], ids[3], 'trust', 0.05],
    ]);
    await app.database.sql.query('DELETE FROM trust_edges WHERE source_agent_id = $1 AND target_agent_id = $2', [ids[1], ids[2]]);
    expect(await among(1, 2)).toEqual([]);
    expect(index.hop([ids[1]!], 26, 25, 2000).edges).toEqual([[ids[0], ids[1], 'trust', 0.5]]);
  });

  it('a notice with no agent reloads every edge', async () => {
    await edgeIndex().ready();
    // Written with the triggers off (as a notice lost with the listening connection): the index cannot know.
    await app.database.sql.withConnection(async (sql) => {
      await sql.query(`SET session_replication_role = replica`);
      try {
        await sql.query(
          `INSERT INTO trust_edges (source_agent_id, target_agent_id, type, strength) VALUES ($1, $2, 'trust', 0.2)`,
          [ids[2], ids[3]],
        );
      } finally {
        await sql.query(`SET session_replication_role = DEFAULT`);
      }
    });
    expect(await among(2, 3)).toEqual([]);
    app.runtime.changes.publishAll();
    expect(await among(2, 3)).toEqual([[2, 3, 'trust', 0.2]]);
  });
});
