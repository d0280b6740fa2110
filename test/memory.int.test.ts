import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeMemoryStorage } from '../server/memory/charge-memory-storage';
import { startTestApp, type TestApp } from './harness';
import { clawBalance, fund } from './money';
import { newWallet, signIn } from './wallets';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

async function owner(options: Parameters<typeof signIn>[2] = {}) {
  const account = newWallet();
  const session = await signIn(app, account, options);
  const created = await app.post('/api/v1/agents', { agent_name: 'Memory owner' }, { token: session.token });
  return { account, token: session.token, agentId: created.body.agent_id as string };
}

const base = (agentId: string) => `/api/v1/agents/${agentId}/memory`;

describe('agent memory', () => {
  it('stores any JSON, reads, lists, replaces, deletes and clears keys', async () => {
    const me = await owner();
    for (const [key, value] of [
      ['obj', { nested: { list: [1, 'two', null] } }],
      ['num', 42],
      ['str', 'hello'],
      ['nul', null],
      ['arr', [true, false]],
    ] as const) {
      const stored = await app.post(base(me.agentId), { key, value }, { token: me.token });
      expect(stored.status).toBe(201);
      expect(stored.body).toMatchObject({ agent_id: me.agentId, key, value, expires_at: null });
    }
    const read = await app.get(`${base(me.agentId)}/obj`, { token: me.token });
    expect(read.status).toBe(200);
    expect(read.body.value).toEqual({ nested: { list: [1, 'two', null] } });
    const put = await app.request('PUT', `${base(me.agentId)}/num`, { token: me.token, body: { value: 43 } });
    expect(put.status).toBe(200);
    expect((await app.get(`${base(me.agentId)}/num`, { token: me.token })).body.value).toBe(43);
    const list = await app.get(base(me.agentId), { token: me.token });
    expect(list.body.keys.map((k: any) => k.key)).toEqual(['arr', 'nul', 'num', 'obj', 'str']);
    expect(list.body.count).toBe(5);
    expect(list.body.usage).toMatchObject({ free_bytes: 10240, billable_kb: 0, daily_charge_claw: 0 });
    const deleted = await app.request('DELETE', `${base(me.agentId)}/str`, { token: me.token });
    expect(deleted.body).toEqual({ agent_id: me.agentId, key: 'str', deleted: true });
    expect((await app.get(`${base(me.agentId)}/str`, { token: me.token })).status).toBe(404);
    expect((await app.request('DELETE', `${base(me.agentId)}/str`, { token: me.token })).status).toBe(404);
    const cleared = await app.request('DELETE', base(me.agentId), { token: me.token });
    expect(cleared.body).toEqual({ agent_id: me.agentId, cleared: 4 });
    expect((await app.get(base(me.agentId), { token: me.token })).body.count).toBe(0);
  });

  it('lists the live keys in key order by id or handle (any case), with their sizes, times and usage', async () => {
    const me = await owner();
    const stored: Record<string, any> = {};
    for (const [key, value, ttl] of [
      ['b', 'x'.repeat(300), undefined],
      ['a', { n: 1 }, 3600],
      ['gone', 1, 3600],
    ] as const) {
      stored[key] = (await app.post(base(me.agentId), { key, value, expires_in_seconds: ttl }, { token: me.token })).body;
    }
    await app.database.sql.query(
      `UPDATE memory_entries SET expires_at = now() - interval '1 second' WHERE agent_id = $1 AND key = 'gone'`,
      [me.agentId],
    );
    const [agent] = await app.database.sql.query<{ handle: string }>('SELECT handle FROM agents WHERE id = $1', [me.agentId]);
    const handle = agent!.handle;
    const byId = await app.get(base(me.agentId), { token: me.token });
    expect(byId.status).toBe(200);
    const entry = (key: string) => ({
      key,
      size_bytes: stored[key].size_bytes,
      expires_at: stored[key].expires_at,
      updated_at: stored[key].updated_at,
    });
    const used = stored.a.size_bytes + stored.b.size_bytes;
    expect(byId.body).toEqual({
      agent_id: me.agentId,
      keys: [entry('a'), entry('b')],
      count: 2,
      usage: { used_bytes: used, free_bytes: 10240, max_bytes: expect.any(Number), billable_kb: 0, daily_charge_claw: 0 },
    });
    expect((await app.get(base(handle.toUpperCase()), { token: me.token })).body).toEqual(byId.body);
    const other = await owner();
    expect((await app.get(base(handle), { token: other.token })).status).toBe(403);
    expect((await app.get(base('no-such-agent'), { token: me.token })).status).toBe(404);
    expect((await app.get(base('not%20a%20ref'), { token: me.token })).status).toBe(404);
    expect((await app.get(base(other.agentId), { token: other.token })).body).toMatchObject({ keys: [], count: 0 });
  });

  it('hides and deletes an expired key on the next read', async () => {
    const me = await owner();
    const stored = await app.post(base(me.agentId), { key: 'ttl', value: 1, expires_in_seconds: 60 }, { token: me.token });
    expect(new Date(stored.body.expires_at).getTime()).toBeGreaterThan(Date.now() + 50_000);
    expect((await app.get(`${base(me.agentId)}/ttl`, { token: me.token })).status).toBe(200);
    await app.database.sql.query(`UPDATE memory_entries SET expires_at = now() - interval '1 second' WHERE agent_id = $1`, [
      me.agentId,
    ]);
    expect((await app.get(base(me.agentId), { token: me.token })).body.count).toBe(0);
    expect((await app.get(`${base(me.agentId)}/ttl`, { token: me.token })).status).toBe(404);
    const rows = await app.database.sql.query('SELECT 1 FROM memory_entries WHERE agent_id = $1', [me.agentId]);
    expect(rows).toHaveLength(0);
    // writing again over an expired key works and the key is new
    expect((await app.request('PUT', `${base(me.agentId)}/ttl`, { token: me.token, body: { value: 2 } })).status).toBe(200);
    expect((await app.post(base(me.agentId), { key: 'x', value: 1, expires_in_seconds: 0 }, { token: me.token })).status).toBe(
      400,
    );
  });

  it('never lets another wallet read, write, list or clear the memory (403), and 404 for unknown agents', async () => {
    const me = await owner();
    await app.post(base(me.agentId), { key: 'secret', value: 's3cret' }, { token: me.token });
    const other = await owner();
    expect((await app.get(base(me.agentId), { token: other.token })).status).toBe(403);
    expect((await app.get(`${base(me.agentId)}/secret`, { token: other.token })).status).toBe(403);
    expect((await app.post(base(me.agentId), { key: 'secret', value: 'x' }, { token: other.token })).status).toBe(403);
    expect((await app.request('PUT', `${base(me.agentId)}/secret`, { token: other.token, body: { value: 'x' } })).status).toBe(
      403,
    );
    expect((await app.request('DELETE', `${base(me.agentId)}/secret`, { token: other.token })).status).toBe(403);
    expect((await app.request('DELETE', base(me.agentId), { token: other.token })).status).toBe(403);
    expect((await app.get(`${base(me.agentId)}/secret`, { token: me.token })).body.value).toBe('s3cret');
    expect((await app.get(base(me.agentId))).status).toBe(401);
    expect((await app.get(base(crypto.randomUUID()), { token: me.token })).status).toBe(404);
    const reader = await owner({ scopes: ['agents.read', 'agents.register'] });
    expect((await app.get(base(reader.agentId), { token: reader.token })).status).toBe(200);
    expect((await app.post(base(reader.agentId), { key: 'k', value: 1 }, { token: reader.token })).status).toBe(403);
  });

  it('enforces key and value limits (413) and the key alphabet (400)', async () => {
    const me = await owner();
    expect((await app.post(base(me.agentId), { key: 'k'.repeat(256), value: 1 }, { token: me.token })).status).toBe(201);
    expect((await app.post(base(me.agentId), { key: 'k'.repeat(257), value: 1 }, { token: me.token })).status).toBe(413);
    expect((await app.get(`${base(me.agentId)}/${'k'.repeat(257)}`, { token: me.token })).status).toBe(413);
    expect((await app.post(base(me.agentId), { key: 'bad key!', value: 1 }, { token: me.token })).status).toBe(400);
    expect((await app.post(base(me.agentId), { key: 'novalue' }, { token: me.token })).status).toBe(400);
    await fund(me.account.address, 1000);
    const big = 'x'.repeat(64 * 1024 - 2);
    expect((await app.post(base(me.agentId), { key: 'max', value: big }, { token: me.token })).status).toBe(201);
    expect((await app.post(base(me.agentId), { key: 'over', value: `${big}x` }, { token: me.token })).status).toBe(413);
  });

  it('is free up to 10 KB, then needs a day of storage in the balance (402), charged once a day by the job', async () => {
    const me = await owner();
    const nineKb = 'a'.repeat(9 * 1024);
    expect((await app.post(base(me.agentId), { key: 'a', value: nineKb }, { token: me.token })).status).toBe(201);
    const exact = 10 * 1024 - (Buffer.byteLength(JSON.stringify(nineKb)) + 1) - 1 - 2;
    // fills the free quota to exactly 10240 bytes: key "b" (1 byte) + a JSON string of `exact` chars (+2 quotes)
    expect((await app.post(base(me.agentId), { key: 'b', value: 'b'.repeat(exact) }, { token: me.token })).status).toBe(201);
    expect((await app.get(base(me.agentId), { token: me.token })).body.usage).toMatchObject({
      used_bytes: 10240,
      billable_kb: 0,
    });
    const over = await app.post(base(me.agentId), { key: 'c', value: 1 }, { token: me.token });
    expect(over.status).toBe(402);
    expect(over.body.details.required_claw).toBe(1);
    await fund(me.account.address, 2);
    expect((await app.post(base(me.agentId), { key: 'c', value: 'c'.repeat(1500) }, { token: me.token })).status).toBe(201);
    const usage = (await app.get(base(me.agentId), { token: me.token })).body.usage;
    expect(usage).toMatchObject({ billable_kb: 2, daily_charge_claw: 2 });
    const day = new Date('2030-01-01T12:00:00Z');
    await chargeMemoryStorage(day);
    expect(await clawBalance(me.account.address)).toBe(0);
    await chargeMemoryStorage(day);
    expect(await clawBalance(me.account.address)).toBe(0);
    // cannot pay the next day: skipped, data kept
    const next = await chargeMemoryStorage(new Date('2030-01-02T12:00:00Z'));
    expect(next.skipped).toBeGreaterThanOrEqual(1);
    expect((await app.get(`${base(me.agentId)}/c`, { token: me.token })).status).toBe(200);
    // shrinking back under the quota needs no balance
    expect((await app.request('DELETE', `${base(me.agentId)}/c`, { token: me.token })).status).toBe(200);
    expect((await app.request('PUT', `${base(me.agentId)}/b`, { token: me.token, body: { value: 'small' } })).status).toBe(200);
  });

  it('counts the daily storage charge against the agent’s max_spend_claw_per_day', async () => {
    const me = await owner();
    await fund(me.account.address, 10);
    const big = 'x'.repeat(11 * 1024);
    expect((await app.post(base(me.agentId), { key: 'big', value: big }, { token: me.token })).status).toBe(201);
    const patched = await app.request('PATCH', `/api/v1/agents/${me.agentId}`, {
      token: me.token,
      body: { max_spend_claw_per_day: 1 },
    });
    expect(patched.status).toBe(200);
    // 2 CLAW a day is over the agent's 1 CLAW limit: skipped, nothing taken.
    const result = await chargeMemoryStorage(new Date('2030-02-01T12:00:00Z'));
    expect(result.skipped).toBeGreaterThanOrEqual(1);
    expect(await clawBalance(me.account.address)).toBe(10);
    await app.request('PATCH', `/api/v1/agents/${me.agentId}`, { token: me.token, body: { max_spend_claw_per_day: 5 } });
    await chargeMemoryStorage(new Date('2030-02-01T12:00:00Z'));
    expect(await clawBalance(me.account.address)).toBe(8);
    const credits = await app.get('/api/v1/credits', { token: me.token });
    expect(credits.body.daily_spend_claw).toBe(2);
  });
});
