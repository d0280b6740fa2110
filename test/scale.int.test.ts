// Lists, search, graph, profiles and stats on a seeded database (npm run seed's generator), beside the
// tiny databases of the other files. In the suite a small volume; `.ci/run` runs this file again on
// PostgreSQL with SCALE_PRESET=medium (20,000 agents, 200,000 endorsements) and a short load smoke.
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkInvariants, PRESETS, seedDatabase, type Counts } from '../scripts/seed-data';
import { FILTERED_TOTAL_MAX } from '../server/core/db/list-totals';
import { startTestApp, type TestApp } from './harness';

const preset = process.env.SCALE_PRESET as keyof typeof PRESETS | undefined;
if (preset && !(preset in PRESETS)) throw new Error(`SCALE_PRESET must be one of ${Object.keys(PRESETS).join(', ')}`);
const COUNTS: Counts = preset
  ? { ...PRESETS[preset] }
  : {
      agents: 1500,
      endorsements: 15_000,
      attestations: 500,
      jobs: 500,
      bids: 1500,
      signals: 500,
      stakes: 2500,
      skills: 100,
      'ledger-transactions': 2000,
      events: 5000,
    };
const AGENTS = COUNTS.agents;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await app.database.sql.withConnection((conn) => seedDatabase(conn, COUNTS));
}, 900_000);
afterAll(() => app.close());

const count = async (sql: string, params: unknown[] = []) =>
  Number((await app.database.sql.query<{ n: number }>(sql, params))[0]!.n);

describe('a seeded database', () => {
  it('holds every invariant: the ledger sums to zero, escrow equals open jobs and signals, handles are unique', async () => {
    await expect(checkInvariants(app.database.sql)).resolves.toBeUndefined();
    expect(await count('SELECT count(*)::int AS n FROM agents')).toBe(AGENTS);
    // a power-law graph: the busiest agent is endorsed far more often than the median one
    const [top] = await app.database.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM endorsements GROUP BY subject_agent_id ORDER BY 1 DESC LIMIT 1`,
    );
    expect(top!.n).toBeGreaterThan(100);
  });

  it('a score read from agent_stats equals the one counted live from the source tables', async () => {
    const sample = await app.database.sql.query<{ id: string }>(
      `(SELECT agent_id AS id FROM agent_stats ORDER BY trust_score DESC LIMIT 10)
       UNION (SELECT agent_id FROM agent_stats ORDER BY agent_id LIMIT 20)`,
    );
    const view = async (id: string) => {
      const { trust, trust_score, endorsement_count, connections_count, skills_count } = (await app.get(`/api/v1/agents/${id}`))
        .body;
      return { trust, trust_score, endorsement_count, connections_count, skills_count };
    };
    // One read at a time: with every agent marked dirty each read counts the source tables, and thirty of
    // those at once on a loaded machine outwait the pool (503), which is not what this test is about.
    const viewAll = async () => {
      const views = [];
      for (const row of sample) views.push(await view(row.id));
      return views;
    };
    const maintained = await viewAll();
    // marked dirty: every read now counts the source tables
    await app.database.sql.query('INSERT INTO agent_stats_dirty (agent_id) SELECT id FROM agents');
    const live = await viewAll();
    await app.database.sql.query('DELETE FROM agent_stats_dirty');
    expect(maintained).toEqual(live);
    expect(maintained.some((v) => v.trust_score > 100)).toBe(true);
  });

  it('leaves the leaderboard table filled (no read has run yet), so reads need no first recomputation', async () => {
    expect(await count('SELECT count(*)::int AS n FROM leaderboard_wallets')).toBe(
      await count('SELECT count(DISTINCT owner_wallet)::int AS n FROM agents'),
    );
    expect(await count('SELECT count(*)::int AS n FROM leaderboard_refresh')).toBe(1);
    const board = await app.get('/api/v1/agents/leaderboard?sort=jobs&limit=5');
    expect(board.body.agents[0].jobs_completed).toBeGreaterThan(0);
  });

  // A filtered total is exact up to FILTERED_TOTAL_MAX matches (or the end of the page asked for).
  const bounded = (n: number) => ({ total: Math.min(n, FILTERED_TOTAL_MAX), total_exact: n <= FILTERED_TOTAL_MAX });

  it('lists page with exact totals, and search finds substrings of handles and names', async () => {
    const page = await app.get('/api/agents?limit=20');
    expect(page.body).toMatchObject({ total: AGENTS, total_exact: true });
    expect(page.body.agents).toHaveLength(20);
    const search = await app.get('/api/v1/agents?q=agent-77&limit=100');
    const expected = await count(
      `SELECT count(*)::int AS n FROM agents WHERE handle LIKE '%agent-77%' OR name ILIKE '%agent-77%'`,
    );
    expect(search.body).toMatchObject(bounded(expected));
    expect(search.body.agents.every((a: any) => a.handle.includes('agent-77'))).toBe(true);
    const word = await app.get('/api/agents?search=NOVA&limit=5');
    expect(word.body).toMatchObject(
      bounded(await count(`SELECT count(*)::int AS n FROM agents WHERE name ILIKE '%nova%' OR handle LIKE '%nova%'`)),
    );
    expect(word.body.agents[0].name.toLowerCase()).toContain('nova');
    const trusted = await app.get('/api/agents?min_trust_score=60&tier=pro&limit=200');
    expect(trusted.body).toMatchObject(
      bounded(
        await count(
          `SELECT count(*)::int AS n FROM agents a JOIN agent_stats s ON s.agent_id = a.id WHERE a.tier = 'pro' AND s.trust_score >= 60`,
        ),
      ),
    );
    expect(trusted.body.agents.every((a: any) => a.tier === 'pro' && a.trust_score >= 60)).toBe(true);
  });

  it('a filter matching more agents than it counts says its total is a lower bound, exact again near the end', async () => {
    // every seeded handle is agent-<n>: the search matches all of them
    const first = await app.get('/api/v1/agents?q=agent-&limit=20');
    expect(first.body).toMatchObject({ total: FILTERED_TOTAL_MAX, total_exact: false });
    expect(first.body.agents).toHaveLength(20);
    const deep = await app.get(`/api/v1/agents?q=agent-&limit=50&offset=${AGENTS - 100}`);
    expect(deep.body).toMatchObject({ total: Math.max(FILTERED_TOTAL_MAX, AGENTS - 50), total_exact: false });
    const last = await app.get(`/api/v1/agents?q=agent-&limit=50&offset=${AGENTS - 20}`);
    expect(last.body).toMatchObject({ total: AGENTS, total_exact: true });
    expect(last.body.agents).toHaveLength(20);
  });

  it('the graph around a hub at depth 4 stays within its bounds, strongest edges first, and says it was cut', async () => {
    const graph = await app.get(`/api/graph/connections?wallet=0x${'1'.padStart(40, '0')}&depth=4`);
    expect(graph.status).toBe(200);
    expect(graph.body.nodes.length).toBeLessThanOrEqual(graph.body.limits.max_nodes);
    expect(graph.body.edges.length).toBeLessThanOrEqual(graph.body.limits.max_edges);
    expect(graph.body.truncated).toBe(true);
    const ids = new Set(graph.body.nodes.map((n: any) => n.id));
    expect(graph.body.edges.every((e: any) => ids.has(e.source) && ids.has(e.target))).toBe(true);
    const overview = await app.get('/api/graph/connections');
    expect(overview.body.nodes).toHaveLength(50);
    expect(overview.body.truncated).toBe(true);
    const scores = overview.body.nodes.map((n: any) => n.trust_score);
    expect(Math.min(...scores)).toBeGreaterThanOrEqual(
      await count('SELECT trust_score AS n FROM agent_stats ORDER BY trust_score DESC OFFSET 49 LIMIT 1'),
    );
  });

  it('a profile shows the newest events naming the agent, and stats equal counting the tables', async () => {
    const hub = (await app.database.sql.query<{ id: string }>(`SELECT id FROM agents WHERE handle = 'agent-1'`))[0]!.id;
    const profile = await app.get(`/api/v1/agents/${hub}`);
    const expected = await app.database.sql.query<{ id: string }>(
      `SELECT e.id::text AS id FROM events e WHERE data->>'agent_id' = $1 OR data->>'target_agent_id' = $1 OR data->>'caller_agent_id' = $1
       ORDER BY e.id DESC LIMIT 20`,
      [hub],
    );
    expect(profile.body.recent_activity.map((e: any) => e.id)).toEqual(expected.map((e) => `evt_${e.id}`));
    const stats = (await app.get('/api/stats')).body;
    expect(stats.agents).toBe(AGENTS);
    expect(stats.events).toBe(await count('SELECT count(*)::int AS n FROM events'));
    expect(stats.endorsements).toBe(await count(`SELECT count(*)::int AS n FROM endorsements WHERE status = 'active'`));
  });
});

// Every public read at once, ten connections for a few seconds: nothing fails and nothing is refused
// (speed is measured in `npm run bench`, not here). Only with a preset: the small suite volume says nothing.
describe.runIf(preset)('a short load smoke on the seeded database', () => {
  it('answers every public read 2xx under 10 connections', async () => {
    const url = await app.listen();
    const hub = (await app.database.sql.query<{ id: string }>(`SELECT id FROM agents WHERE handle = 'agent-1'`))[0]!.id;
    const paths = [
      '/api/agents?limit=20',
      '/api/v1/agents?limit=20&min_trust_score=40',
      '/api/agents?search=agent-77',
      `/api/agents/${hub}`,
      `/api/v1/agents/${hub}`,
      '/api/graph/connections?depth=2',
      `/api/graph/connections?wallet=0x${'1'.padStart(40, '0')}&depth=4`,
      '/api/stats',
      '/api/v1/agents/leaderboard',
      '/api/v1/jobs?limit=20',
      '/api/v1/signals?limit=20',
      '/api/skills',
    ];
    const result = await autocannon({
      url,
      connections: 10,
      duration: 6,
      requests: paths.map((path) => ({ method: 'GET', path })),
    });
    console.log(
      `load smoke (${preset}): ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
    );
    expect(result.errors).toBe(0);
    expect(result.timeouts).toBe(0);
    expect(result.non2xx).toBe(0);
    expect(result.requests.total).toBeGreaterThan(paths.length);
  }, 60_000);
});
