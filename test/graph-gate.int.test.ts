// The graph's guards (server/trust/connection-graph.ts): answers are cached until a trust or agent
// change, and when the graph computations in flight fill their gate, a new one is refused with 503
// and Retry-After at once, while every other read and every cached graph still answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConcurrencyGate } from '../server/core/concurrency-gate';
import { startTestApp, type TestApp } from './harness';
import { newWallet, registerAgent } from './wallets';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

async function agent() {
  const { account, response } = await registerAgent(app, newWallet());
  expect(response.status).toBe(201);
  return { address: account.address, id: response.body.id as string };
}

const edge = (source: string, target: string) =>
  app.database.sql.query(
    `INSERT INTO trust_edges (source_agent_id, target_agent_id, type, strength) VALUES ($1, $2, 'trust', 0.5)`,
    [source, target],
  );

const nodeIds = (body: any) => body.nodes.map((n: any) => n.id).sort();

describe('GET /api/graph/connections under load', () => {
  it('serves a cached answer until the trust graph changes', async () => {
    const [a, b, c] = [await agent(), await agent(), await agent()];
    await edge(a.id, b.id);
    const first = await app.get(`/api/graph/connections?wallet=${a.address}&depth=1`);
    expect(first.status).toBe(200);
    expect(nodeIds(first.body)).toEqual([a.id, b.id].sort());
    // a new edge drops the cached answer: the next request sees it
    await edge(a.id, c.id);
    const second = await app.get(`/api/graph/connections?wallet=${a.address}&depth=1`);
    expect(nodeIds(second.body)).toEqual([a.id, b.id, c.id].sort());
  });

  it('refuses a new computation with 503 and Retry-After when the gate is full; other reads still answer', async () => {
    const [a, b] = [await agent(), await agent()];
    await edge(a.id, b.id);
    const cached = await app.get(`/api/graph/connections?wallet=${a.address}&depth=1`);
    expect(cached.status).toBe(200);
    const gate = app.runtime.state.get('trust.connection-graph.gate') as ConcurrencyGate;
    expect(gate).toBeDefined();

    // occupy every running slot and every queue place with computations that wait for us
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holders = Array.from({ length: gate.limit + gate.queue }, () => gate.run(() => held));
    expect(gate.inFlight).toBe(gate.limit);
    expect(gate.queued).toBe(gate.queue);
    try {
      const refused = await app.get(`/api/graph/connections?wallet=${a.address}&depth=3`);
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe('service_unavailable');
      expect(refused.headers.get('retry-after')).toBe('1');
      // the overview is refused too (not cached yet), but every other read answers. (A cached graph
      // answers as well, unless a change notice, which on PostgreSQL may arrive late, dropped it.)
      expect((await app.get('/api/graph/connections')).status).toBe(503);
      expect([200, 503]).toContain((await app.get(`/api/graph/connections?wallet=${a.address}&depth=1`)).status);
      expect((await app.get('/api/v1/health')).status).toBe(200);
      expect((await app.get('/api/agents?limit=5')).status).toBe(200);
      expect((await app.get(`/api/agents/${a.id}`)).status).toBe(200);
    } finally {
      release();
      await Promise.all(holders);
    }
    expect(gate.inFlight).toBe(0);
    // nothing refused was cached: the same request now computes its graph
    const answered = await app.get(`/api/graph/connections?wallet=${a.address}&depth=3`);
    expect(answered.status).toBe(200);
    expect(nodeIds(answered.body)).toEqual([a.id, b.id].sort());
  });
});
