import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database, withTransaction } from '../server/core/db';
import { openDatabase, type Database } from '../server/core/db/open';
import { emit } from '../server/events/emit';
import { runWebhooks, webhookSettings, type WebhookSettings } from '../server/webhooks/deliver-webhooks';
import { startTestApp, type TestApp } from './harness';
import { newWallet, signedAction, signIn } from './wallets';

// Webhooks on testnet (http receivers on loopback are allowed here; webhooks-mainnet.int.test.ts
// checks the mainnet and private-address refusals). Deliveries are driven by calling the job
// with a test clock instead of waiting minutes.

interface Hit {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let app: TestApp;
let receiver: Server;
let receiverUrl: string;
const hits: Hit[] = [];
const failuresLeft = new Map<string, number>();

beforeAll(async () => {
  app = await startTestApp({ SERVICE_NETWORK: 'testnet', WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_DISABLE_AFTER: '2' });
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      hits.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (path.startsWith('/slow')) return void setTimeout(() => response.writeHead(200).end('late'), 1500);
      if (path.startsWith('/redirect')) return void response.writeHead(302, { location: `${receiverUrl}/ok` }).end();
      if (path.startsWith('/fail')) return void response.writeHead(500).end('no');
      const left = failuresLeft.get(path) ?? 0;
      if (left > 0) {
        failuresLeft.set(path, left - 1);
        return void response.writeHead(503).end('later');
      }
      response.writeHead(200).end('ok');
    });
  });
  receiver.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const address = receiver.address();
  receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await app.close();
});

async function member(tier = 'none') {
  const account = newWallet();
  const session = await signIn(app, account);
  await app.post('/api/v1/agents', { agent_name: 'Hooked' }, { token: session.token });
  if (tier !== 'none') await database().sql.query('UPDATE agents SET tier = $1 WHERE owner_wallet = $2', [tier, account.address]);
  return { account, token: session.token };
}

const settings = (): WebhookSettings => webhookSettings(app.runtime);
const emitNow = (name: Parameters<typeof emit>[0], data: Record<string, unknown>, audience?: string[]) =>
  withTransaction((tx) => emit(name, data, tx.sql, audience ? { audience } : {}));
const at = (offsetMs: number) => new Date(Date.now() + offsetMs);
const hitsFor = (path: string) => hits.filter((hit) => hit.path === path);

describe('webhook registration', () => {
  it('registers in both families, lists only the caller’s, and deletes (204) only by the owner', async () => {
    const me = await member();
    const other = await member();
    const a = await app.post(
      '/api/webhooks',
      { url: `${receiverUrl}/a`, events: ['agent.registered'], secret: 'a-secret-of-16-chars' },
      { token: me.token },
    );
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({
      url: `${receiverUrl}/a`,
      events: ['agent.registered'],
      is_active: true,
      delivery_count: 0,
      last_delivered_at: null,
    });
    expect(a.body.secret).toBeUndefined();
    const b = await app.post(
      '/api/v1/webhooks',
      { url: `${receiverUrl}/b`, events: ['job.posted', 'job.posted', 'agent.invoked'] },
      { token: me.token },
    );
    expect(b.status).toBe(201);
    expect(b.body.events).toEqual(['job.posted', 'agent.invoked']);
    expect(b.body.secret).toMatch(/^[0-9a-f]{64}$/);

    const mine = await app.get('/api/v1/webhooks', { token: me.token });
    expect(mine.body.webhooks.map((w: any) => w.id).sort()).toEqual([a.body.id, b.body.id].sort());
    expect((await app.get('/api/webhooks', { token: other.token })).body.webhooks).toEqual([]);

    // Another wallet can neither see nor delete it.
    expect((await app.request('DELETE', `/api/webhooks/${a.body.id}`, { token: other.token })).status).toBe(404);
    expect((await app.get(`/api/v1/webhooks/${a.body.id}/deliveries`, { token: other.token })).status).toBe(404);
    const deleted = await app.request('DELETE', `/api/webhooks/${a.body.id}`, { token: me.token });
    expect(deleted.status).toBe(204);
    expect((await app.request('DELETE', `/api/webhooks/${a.body.id}`, { token: me.token })).status).toBe(404);
    expect((await app.request('DELETE', `/api/v1/webhooks/${b.body.id}`, { token: me.token })).status).toBe(204);
  });

  it('registers by a wallet signature in the body (family A), once', async () => {
    const account = newWallet();
    const url = `${receiverUrl}/signed`;
    const signed = await signedAction(account, `Register webhook ${url}`);
    const body = { url, events: ['skill.published'], wallet_address: account.address, ...signed };
    const created = await app.post('/api/webhooks', body);
    expect(created.status).toBe(201);
    expect((await app.post('/api/webhooks', body)).status).toBe(401); // replayed
    const wrongUrl = await signedAction(account, `Register webhook ${receiverUrl}/other`);
    expect((await app.post('/api/webhooks', { ...body, ...wrongUrl })).status).toBe(401);
    expect((await app.post('/api/webhooks', { url, events: ['skill.published'] })).status).toBe(401);
  });

  it('refuses bad input (400), no token (401), a missing scope (403), tier-gated events below entry (403)', async () => {
    const me = await member();
    const bad = [
      { url: 'not a url', events: ['agent.registered'] },
      { url: `${receiverUrl}/x`, events: [] },
      { url: `${receiverUrl}/x`, events: ['agent.nothing'] },
      { url: `${receiverUrl}/x`, events: ['agent.registered'], secret: '' },
      { url: 'ftp://example.com/x', events: ['agent.registered'] },
      { url: 'https://user:pw@example.com/x', events: ['agent.registered'] },
    ];
    for (const body of bad)
      expect((await app.post('/api/v1/webhooks', body, { token: me.token })).status, JSON.stringify(body)).toBe(400);
    expect((await app.post('/api/v1/webhooks', { url: `${receiverUrl}/x`, events: ['agent.registered'] })).status).toBe(401);
    expect((await app.get('/api/v1/webhooks')).status).toBe(401);

    const narrow = await signIn(app, newWallet(), { scopes: ['agents.read'] });
    expect(
      (await app.post('/api/v1/webhooks', { url: `${receiverUrl}/x`, events: ['agent.registered'] }, { token: narrow.token }))
        .status,
    ).toBe(403);

    for (const event of ['smart_money.alert', 'skill.installed']) {
      const gated = await app.post(
        '/api/v1/webhooks',
        { url: `${receiverUrl}/x`, events: ['agent.registered', event] },
        { token: me.token },
      );
      expect(gated.status).toBe(403);
      expect(gated.body.code).toBe('tier_required');
    }
    const entry = await member('entry');
    expect(
      (await app.post('/api/v1/webhooks', { url: `${receiverUrl}/x`, events: ['smart_money.alert'] }, { token: entry.token }))
        .status,
    ).toBe(201);
  });
});

describe('webhook secrets as a spec-reading client sends them', () => {
  it('accepts a short secret (the spec sets no minimum) and signs deliveries with it', async () => {
    const me = await member();
    const secret = 'shh';
    for (const [path, receiver] of [
      ['/api/webhooks', '/short-a'],
      ['/api/v1/webhooks', '/short-b'],
    ] as const) {
      const created = await app.post(
        path,
        { url: `${receiverUrl}${receiver}`, events: ['job.posted'], secret },
        { token: me.token },
      );
      expect(created.status, path).toBe(201);
      expect(created.body.secret, path).toBeUndefined();
    }
    await emitNow('job.posted', { job_id: 'short-secret' });
    await runWebhooks(app.database, settings());
    const [hit] = hitsFor('/short-a');
    expect(hit).toBeDefined();
    const expected = `sha256=${createHmac('sha256', secret).update(hit!.body).digest('hex')}`;
    expect(hit!.headers['x-service-signature']).toBe(expected);
  });
});

describe('webhook delivery', () => {
  it('signs the exact body bytes: the spec recipe and the standardwebhooks library both verify', async () => {
    const me = await member();
    const secret = 'receiver-secret-0123456789';
    await app.post('/api/v1/webhooks', { url: `${receiverUrl}/sig`, events: ['job.posted'], secret }, { token: me.token });
    await emitNow('job.posted', { job_id: 'sig-1', title: 'Résumé ✓' });
    await runWebhooks(app.database, settings());
    const [hit] = hitsFor('/sig');
    expect(hit).toBeDefined();
    const body = JSON.parse(hit!.body);
    expect(body).toMatchObject({ event: 'job.posted', data: { job_id: 'sig-1', title: 'Résumé ✓' } });
    expect(body.id).toMatch(/^evt_\d+$/);
    expect(Object.keys(body)).toEqual(['id', 'event', 'timestamp', 'data']);
    // The spec's recipe: sha256=<hex HMAC of the raw body>, compared in constant time.
    const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(hit!.body).digest('hex')}`);
    const sent = Buffer.from(String(hit!.headers['x-service-signature']));
    expect(sent.length === expected.length && timingSafeEqual(sent, expected)).toBe(true);
    // Standard Webhooks, verified by the off-the-shelf library.
    const verifier = new Webhook(Buffer.from(secret, 'utf8').toString('base64'));
    expect(verifier.verify(hit!.body, hit!.headers as Record<string, string>)).toEqual(body);
    expect(hit!.headers['webhook-id']).toBe(body.id);
    expect(() => verifier.verify(hit!.body.replace('sig-1', 'sig-2'), hit!.headers as Record<string, string>)).toThrow();
    const record = (await app.get('/api/v1/webhooks', { token: me.token })).body.webhooks[0];
    expect(record.delivery_count).toBe(1);
    expect(record.last_delivered_at).not.toBeNull();
  });

  it('retries after 30 s and 5 min: the third attempt succeeds with the same id and a valid signature', async () => {
    const me = await member();
    const secret = 'flaky-secret-0123456789';
    const hook = await app.post(
      '/api/v1/webhooks',
      { url: `${receiverUrl}/flaky`, events: ['job.bid'], secret },
      { token: me.token },
    );
    failuresLeft.set('/flaky', 2);
    await emitNow('job.bid', { bid: 1 });
    await runWebhooks(app.database, settings());
    expect(hitsFor('/flaky')).toHaveLength(1);
    await runWebhooks(app.database, settings(), at(29_000)); // not due yet
    expect(hitsFor('/flaky')).toHaveLength(1);
    await runWebhooks(app.database, settings(), at(31_000));
    expect(hitsFor('/flaky')).toHaveLength(2);
    const deliveries = await app.get(`/api/v1/webhooks/${hook.body.id}/deliveries`, { token: me.token });
    expect(deliveries.body.deliveries[0]).toMatchObject({
      status: 'pending',
      attempts: 2,
      response_code: 503,
      error: 'HTTP 503',
    });
    expect(new Date(deliveries.body.deliveries[0].next_attempt_at).getTime()).toBeGreaterThan(Date.now() + 5 * 60_000);
    await runWebhooks(app.database, settings(), at(31_000 + 5 * 60_000 + 1000));
    const all = hitsFor('/flaky');
    expect(all).toHaveLength(3);
    expect(new Set(all.map((hit) => JSON.parse(hit.body).id)).size).toBe(1);
    expect(new Set(all.map((hit) => hit.headers['webhook-id'])).size).toBe(1);
    const verifier = new Webhook(Buffer.from(secret).toString('base64'));
    expect(() => verifier.verify(all[2]!.body, all[2]!.headers as Record<string, string>)).not.toThrow();
    const after = await app.get(`/api/v1/webhooks/${hook.body.id}/deliveries`, { token: me.token });
    expect(after.body.deliveries[0]).toMatchObject({
      status: 'delivered',
      attempts: 3,
      response_code: 200,
      error: null,
      next_attempt_at: null,
    });
  });

  it('a receiver that always fails ends failed after exactly 4 attempts; a slow one and a redirect count as failures; repeated failures disable the webhook; redeliver sends again', async () => {
    const me = await member();
    const hook = await app.post(
      '/api/v1/webhooks',
      { url: `${receiverUrl}/fail`, events: ['job.completed'] },
      { token: me.token },
    );
    const slow = await app.post(
      '/api/v1/webhooks',
      { url: `${receiverUrl}/slow`, events: ['job.completed'] },
      { token: me.token },
    );
    const redirect = await app.post(
      '/api/v1/webhooks',
      { url: `${receiverUrl}/redirect`, events: ['job.completed'] },
      { token: me.token },
    );
    await emitNow('job.completed', { job_id: 'j-fail' });
    let clock = 0;
    for (const delay of [0, 30_000, 5 * 60_000, 30 * 60_000, 60 * 60_000, 24 * 3600_000]) {
      clock += delay + 1000;
      await runWebhooks(app.database, settings(), at(clock));
    }
    expect(hitsFor('/fail')).toHaveLength(4);
    expect(hitsFor('/slow')).toHaveLength(4);
    expect(hitsFor('/redirect')).toHaveLength(4);
    expect(hitsFor('/ok')).toHaveLength(0); // the redirect was not followed
    const failed = (await app.get(`/api/v1/webhooks/${hook.body.id}/deliveries`, { token: me.token })).body.deliveries[0];
    expect(failed).toMatchObject({ status: 'failed', attempts: 4, response_code: 500, next_attempt_at: null });
    const slowDelivery = (await app.get(`/api/v1/webhooks/${slow.body.id}/deliveries`, { token: me.token })).body.deliveries[0];
    expect(slowDelivery).toMatchObject({ status: 'failed', attempts: 4, response_code: null });
    expect(slowDelivery.error).toMatch(/within 1000 ms/);
    const redirected = (await app.get(`/api/v1/webhooks/${redirect.body.id}/deliveries`, { token: me.token })).body.deliveries[0];
    expect(redirected).toMatchObject({ status: 'failed', response_code: 302 });

    // WEBHOOK_DISABLE_AFTER=2 here: a second failed delivery switches the webhook off.
    await emitNow('job.completed', { job_id: 'j-fail-2' });
    clock = 0;
    for (const delay of [0, 30_000, 5 * 60_000, 30 * 60_000]) {
      clock += delay + 1000;
      await runWebhooks(app.database, settings(), at(clock));
    }
    const listed = (await app.get('/api/v1/webhooks', { token: me.token })).body.webhooks.find((w: any) => w.id === hook.body.id);
    expect(listed.is_active).toBe(false);
    await emitNow('job.completed', { job_id: 'j-ignored' });
    const before = hitsFor('/fail').length;
    await runWebhooks(app.database, settings(), at(clock + 1000));
    expect(hitsFor('/fail').length).toBe(before);

    // Redeliver: owner only, not while pending, then one more attempt with the same event id.
    const other = await member();
    const path = `/api/v1/webhooks/${hook.body.id}/deliveries/${failed.id}/redeliver`;
    expect((await app.post(path, undefined, { token: other.token })).status).toBe(404);
    const again = await app.post(path, undefined, { token: me.token });
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ id: failed.id, status: 'pending', attempts: 0 });
    expect((await app.post(path, undefined, { token: me.token })).status).toBe(409);
    await runWebhooks(app.database, settings());
    const resent = hitsFor('/fail').at(-1)!;
    expect(JSON.parse(resent.body).id).toBe(failed.event_id);
  }, 60_000);

  it('delivers private events only to their audience and gated events only at the entry tier', async () => {
    const alice = await member();
    const bob = await member();
    await app.post('/api/v1/webhooks', { url: `${receiverUrl}/alice`, events: ['agent.invoked'] }, { token: alice.token });
    await app.post('/api/v1/webhooks', { url: `${receiverUrl}/bob`, events: ['agent.invoked'] }, { token: bob.token });
    const rich = await member('entry');
    await app.post('/api/v1/webhooks', { url: `${receiverUrl}/rich`, events: ['smart_money.alert'] }, { token: rich.token });
    await emitNow('agent.invoked', { invocation_id: 'inv-a' }, [alice.account.address]);
    await database().sql.query(`UPDATE agents SET tier = 'none' WHERE owner_wallet = $1`, [rich.account.address]);
    await emitNow('smart_money.alert', { id: 'alert-after-downgrade' });
    await runWebhooks(app.database, settings());
    expect(hitsFor('/alice').map((hit) => JSON.parse(hit.body).data.invocation_id)).toEqual(['inv-a']);
    expect(hitsFor('/bob')).toHaveLength(0);
    expect(hitsFor('/rich')).toHaveLength(0);
  });

  it('several workers (separate connection pools on PostgreSQL) deliver each event exactly once per attempt', async () => {
    const me = await member();
    await app.post('/api/v1/webhooks', { url: `${receiverUrl}/once`, events: ['skill.published'] }, { token: me.token });
    failuresLeft.set('/once', 3);
    for (let i = 0; i < 40; i++) await emitNow('skill.published', { n: i });
    const others: Database[] = [];
    if (app.database.kind === 'postgres' && process.env.DATABASE_URL) {
      const url = new URL(process.env.DATABASE_URL);
      url.searchParams.set('schema', app.database.schema);
      for (let i = 0; i < 2; i++) others.push(await openDatabase({ DATABASE_URL: url.toString(), DATA_DIR: '' }));
    }
    const handles = [app.database, app.database, ...others];
    await Promise.all(handles.map((handle) => runWebhooks(handle, settings())));
    await Promise.all(handles.map((handle) => runWebhooks(handle, settings(), at(31_000))));
    await Promise.all(handles.map((handle) => runWebhooks(handle, settings(), at(400_000))));
    for (const other of others) await other.close();
    const ns = hitsFor('/once').map((hit) => JSON.parse(hit.body).data.n as number);
    // Every attempt is one request (a claim is never made twice): as many requests as attempts,
    // 3 failed first attempts (and any transport failure) retried, every event delivered.
    const attempts = await database().sql.query<{ attempts: number; delivered: number }>(
      `SELECT sum(d.attempts)::int AS attempts, count(*) FILTER (WHERE d.status = 'delivered')::int AS delivered
       FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE w.url = $1`,
      [`${receiverUrl}/once`],
    );
    expect(ns.length).toBe(attempts[0]!.attempts);
    expect(ns.length).toBeGreaterThanOrEqual(43);
    expect(new Set(ns).size).toBe(40);
    expect(attempts[0]!.delivered).toBe(40);
  });
});

// Regressions of the second adversarial probe (security issue): each test failed before its fix.
describe('webhooks per wallet', () => {
  it('never registers more than WEBHOOKS_PER_CALLER (20) under 30 concurrent creates', async () => {
    const account = newWallet();
    const me = { account, ...(await signIn(app, account)) };
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        app.post(
          '/api/v1/webhooks',
          { url: `https://hooks.example.com/${n}`, events: ['agent.registered'] },
          { token: me.token },
        ),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(20);
    expect(results.filter((r) => r.status === 409)).toHaveLength(10);
    const [count] = await app.database.sql.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhooks WHERE owner_wallet = $1',
      [me.account.address],
    );
    expect(count!.n).toBe(20);
  });
});
