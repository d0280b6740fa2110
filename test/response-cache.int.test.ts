// The response cache of public reads (server/http/response-cache.ts): an anonymous GET of an
// endpoint that declares `cache` is answered from the serialized answer kept for it; a write on
// this instance or a change notice from the database drops it at once; a caller with a credential
// never reads or fills it; the bytes it holds are bounded; identical concurrent misses share one
// computation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCache, responseCache } from '../server/http/response-cache';
import { startTestApp, type TestApp } from './harness';
import { fund } from './money';
import { newWallet, signIn } from './wallets';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const cache = () => app.runtime.state.get('http.response-cache') as ReturnType<typeof responseCache>;

async function owner(name: string) {
  const wallet = newWallet();
  const session = await signIn(app, wallet);
  const created = await app.post('/api/v1/agents', { agent_name: name }, { token: session.token });
  expect(created.status).toBe(201);
  return { token: session.token, id: created.body.agent_id as string, wallet: wallet.address };
}

describe('the response cache of public reads', () => {
  it('answers a repeated anonymous read from the cache, byte for byte', async () => {
    const marker = `rc${Date.now().toString(36)}`;
    await owner(`${marker} one`);
    const first = await app.get(`/api/v1/agents?q=${marker}`);
    expect(first.body.total).toBe(1);
    const hits = cache().hits;
    const second = await app.get(`/api/v1/agents?q=${marker}`);
    expect(cache().hits).toBe(hits + 1);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('content-type')).toContain('application/json');
  });

  it('shows a write through the API at once (same instance)', async () => {
    const marker = `rw${Date.now().toString(36)}`;
    const a = await owner(`${marker} one`);
    expect((await app.get(`/api/v1/agents?q=${marker}`)).body.total).toBe(1);
    await owner(`${marker} two`);
    expect((await app.get(`/api/v1/agents?q=${marker}`)).body.total).toBe(2);
    const renamed = await app.request('PATCH', `/api/v1/agents/${a.id}`, {
      token: a.token,
      body: { agent_name: `${marker} renamed` },
    });
    expect(renamed.status).toBe(200);
    expect((await app.get(`/api/v1/agents/${a.id}`)).text).toContain(`${marker} renamed`);
  });

  it('drops an answer on a change notice from the database (a write no request of this instance made)', async () => {
    const marker = `rn${Date.now().toString(36)}`;
    const a = await owner(`${marker} one`);
    const before = await app.get(`/api/agents/${a.id}`);
    expect(before.status).toBe(200);
    expect((await app.get(`/api/agents/${a.id}`)).text).toBe(before.text);
    await app.database.sql.query(`UPDATE agents SET name = $1 WHERE id = $2`, [`${marker} by sql`, a.id]);
    const after = await app.get(`/api/agents/${a.id}`);
    expect(after.text).toContain(`${marker} by sql`);
  });

  it('drops the skill lists when a skill is published, installed or hidden, on both families', async () => {
    const marker = `rs${Date.now().toString(36)}`;
    const author = await owner(`${marker} author`);
    await fund(author.wallet, 1_000_000);
    const listed = async () => {
      const [a, b] = [await app.get(`/api/skills?search=${marker}`), await app.get(`/api/v1/skills?q=${marker}`)];
      expect(a.status, a.text).toBe(200);
      expect(b.status, b.text).toBe(200);
      expect(b.body.total).toBe(a.body.total);
      return b.body as { total: number; skills: { id: string; install_count: number }[] };
    };
    expect((await listed()).total).toBe(0);
    const hits = cache().hits;
    expect((await listed()).total).toBe(0);
    expect(cache().hits).toBe(hits + 2);

    const published = await app.post(
      '/api/v1/skills',
      { name: `${marker} skill`, description: 'A skill the cache test publishes', category: 'trading', tags: [marker] },
      { token: author.token },
    );
    expect(published.status, published.text).toBe(201);
    const skillId = published.body.id as string;
    expect((await listed()).skills.map((skill) => skill.id)).toEqual([skillId]);

    // A write no request of this instance made (the install count a statement elsewhere moved).
    await app.database.sql.query('UPDATE skills SET install_count = install_count + 7 WHERE id = $1', [skillId]);
    expect((await listed()).skills[0]!.install_count).toBe(7);

    await app.database.sql.query('UPDATE skills SET hidden_at = now() WHERE id = $1', [skillId]);
    expect((await listed()).total).toBe(0);
  });

  it('never answers or keeps the owner’s view for anyone else', async () => {
    const marker = `ro${Date.now().toString(36)}`;
    const a = await owner(`${marker} one`);
    await app.request('PATCH', `/api/v1/agents/${a.id}`, {
      token: a.token,
      body: { is_callable: true, invoke_url: 'https://agent.example/invoke' },
    });
    const size = cache().size.entries;
    const mine = await app.get(`/api/v1/agents/${a.id}`, { token: a.token });
    expect(mine.body.invoke_url).toBe('https://agent.example/invoke');
    expect(cache().size.entries).toBe(size);
    const anonymous = await app.get(`/api/v1/agents/${a.id}`);
    expect(anonymous.body.invoke_url).toBeUndefined();
    // and the owner is not answered from the anonymous entry now kept
    expect((await app.get(`/api/v1/agents/${a.id}`, { token: a.token })).body.invoke_url).toBe('https://agent.example/invoke');
  });

  it('shares one computation between identical concurrent misses', async () => {
    const marker = `rk${Date.now().toString(36)}`;
    await owner(`${marker} one`);
    const misses = cache().misses;
    const answers = await Promise.all(Array.from({ length: 8 }, () => app.get(`/api/agents?search=${marker}`)));
    expect(answers.every((answer) => answer.status === 200 && answer.text === answers[0]!.text)).toBe(true);
    expect(cache().misses).toBe(misses + 1);
  });

  it('holds at most its byte budget, dropping the least recently used', async () => {
    const small = new ResponseCache(10_000, 4_000);
    const policy = { maxAgeMs: 60_000, dropOn: ['agent' as const] };
    const answer = (n: number) => async () => ({ status: 200, json: 'x'.repeat(n), headers: {} });
    for (let i = 0; i < 10; i++) await small.get(`k${i}`, policy, answer(1_000));
    expect(small.size.bytes).toBeLessThanOrEqual(10_000);
    expect(small.size.entries).toBeLessThan(10);
    await small.get('big', policy, answer(5_000)); // larger than one entry may be: not kept
    expect(small.size.entries).toBeLessThan(10);
    let computed = 0;
    await small.get('k9', policy, async () => (computed++, { status: 200, json: 'y', headers: {} }));
    expect(computed).toBe(0); // the newest survived
    small.changed('agent');
    expect(small.size).toEqual({ entries: 0, bytes: 0 });
  });

  it('does not keep a computation a change notice overtook', async () => {
    const local = new ResponseCache();
    const policy = { maxAgeMs: 60_000, dropOn: ['trust' as const] };
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const pending = local.get('k', policy, async () => (await gate, { status: 200, json: '"old"', headers: {} }));
    local.changed('trust');
    let computed = 0;
    const fresh = local.get('k', policy, async () => (computed++, { status: 200, json: '"new"', headers: {} }));
    release();
    expect((await pending)?.json).toBe('"old"');
    expect((await fresh)?.json).toBe('"new"');
    expect(computed).toBe(1);
    expect((await local.get('k', policy, async () => null))?.json).toBe('"new"');
  });
});
