import { createServer, type Server } from 'node:http';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMigrations } from '../server/core/db/migrations';
import { parsePostgresUrl } from '../server/core/db/open';
import { ensureProductionBuild, startServer, type RunningServer } from './server-process';

// Black-box: the production entry as `npm start` runs it, over real HTTP.
let server: RunningServer;
let slowTarget: Server;
let slowUrl = '';

beforeAll(async () => {
  ensureProductionBuild();
  server = await startServer({ LOG_LEVEL: 'info' });
  slowTarget = createServer((_request, response) => {
    setTimeout(() => response.end(JSON.stringify({ slow: true })), 1500);
  });
  await new Promise<void>((resolve) => slowTarget.listen(0, '127.0.0.1', resolve));
  slowUrl = `http://127.0.0.1:${(slowTarget.address() as { port: number }).port}/slow`;
}, 600_000);

afterAll(async () => {
  await server?.stop();
  slowTarget?.close();
});

async function json(path: string, init: RequestInit = {}) {
  const response = await fetch(`${server.url}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  });
  return { status: response.status, headers: response.headers, body: await response.json().catch(() => null) };
}

async function signIn() {
  const account = privateKeyToAccount(generatePrivateKey());
  const challenge = await json('/api/v1/auth/challenge', {
    method: 'POST',
    body: JSON.stringify({ owner_wallet: account.address, agent_pubkey: 'e2e' }),
  });
  const signature = await account.signMessage({ message: challenge.body.challenge });
  const verify = await json('/api/v1/auth/verify', {
    method: 'POST',
    body: JSON.stringify({ challenge_id: challenge.body.challenge_id, signature }),
  });
  return { account, token: verify.body.token as string };
}

describe('production server', () => {
  it('serves the REST API through the fast door with a request id', async () => {
    const health = await json('/api/v1/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', issues_count: 0 });
    expect(health.headers.get('x-request-id')).toBeTruthy();
    expect(health.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('serves pages through Next.js', async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('Vouchsafe');
  });

  it('answers unknown /api paths with JSON on both doors, never HTML', async () => {
    for (const path of ['/api/nope', '/api/trpc/nope', '/api/auth/nope', '/api']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type'), path).toContain('application/json');
    }
  });

  it('serves the interactive API reference and the OpenAPI document', async () => {
    const docs = await fetch(`${server.url}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('/api/openapi.json');
    expect((await json('/api/openapi.json')).body.openapi).toBe('3.1.0');
  });

  it('runs sign-in, bootstrap and credits end to end', async () => {
    const { account, token } = await signIn();
    const auth = { authorization: `Bearer ${token}` };
    const boot = await json('/api/v1/agents/bootstrap', { method: 'POST', body: '{}', headers: auth });
    expect(boot.body).toMatchObject({ owner_wallet: account.address, welcome_claw: 100 });
    expect((await json('/api/v1/credits', { headers: auth })).body.balance_claw).toBe(100);
  });

  it('writes one JSON log line per request with id, method, path, status and duration', async () => {
    await json('/api/v1/health', { headers: { 'x-request-id': 'log-check-1' } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const line = server
      .stdout()
      .split('\n')
      .find((l) => l.includes('log-check-1'));
    expect(JSON.parse(line!)).toMatchObject({
      request_id: 'log-check-1',
      method: 'GET',
      path: '/api/v1/health',
      status: 200,
      duration_ms: expect.any(Number),
    });
    // Answers that end in the not-found and error handlers are logged too.
    await json('/api/nope', { headers: { 'x-request-id': 'log-check-2' } });
    await json('/api/v1/credits', { headers: { 'x-request-id': 'log-check-3' } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const lines = server.stdout().split('\n');
    const logged = (id: string) => JSON.parse(lines.find((l) => l.includes(`"request_id":"${id}"`))!);
    expect(logged('log-check-2')).toMatchObject({ path: '/api/nope', status: 404 });
    expect(logged('log-check-3')).toMatchObject({ path: '/api/v1/credits', status: 401 });
  });

  it('finishes in-flight requests on SIGTERM, then exits 0', async () => {
    const own = await startServer();
    const { token } = await (async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      const c = await fetch(`${own.url}/api/v1/auth/challenge`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ owner_wallet: account.address, agent_pubkey: 'slow' }),
      }).then((r) => r.json());
      const v = await fetch(`${own.url}/api/v1/auth/verify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ challenge_id: c.challenge_id, signature: await account.signMessage({ message: c.challenge }) }),
      }).then((r) => r.json());
      return { token: v.token as string };
    })();
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    const created = await fetch(`${own.url}/api/v1/agents`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ agent_name: 'Slow' }),
    }).then((r) => r.json());
    await fetch(`${own.url}/api/v1/agents/${created.agent_id}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ is_callable: true, invoke_url: slowUrl }),
    });
    const inFlight = fetch(`${own.url}/api/v1/agents/${created.agent_id}/invoke`, { method: 'POST', headers, body: '{}' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    own.child.kill('SIGTERM');
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect((await response.json()).response).toEqual({ slow: true });
    expect(await own.exit).toBe(0);
    expect(own.stdout()).toContain('"msg":"stopped"');
  });

  it('refuses a bad configuration with a one-line message naming the variable', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'server.ts'], {
      env: { ...process.env, PORT: 'eighty', NODE_ENV: 'production' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('PORT');
  });

  it.runIf(process.env.DATABASE_URL)(
    'starts two instances on one PostgreSQL at once without double-applying migrations',
    async () => {
      const schema = `e2e_${randomBytes(4).toString('hex')}`;
      const url = new URL(process.env.DATABASE_URL!);
      url.searchParams.set('schema', schema);
      const [a, b] = await Promise.all([
        startServer({ DATABASE_URL: url.toString() }),
        startServer({ DATABASE_URL: url.toString() }),
      ]);
      const client = new pg.Client({ connectionString: parsePostgresUrl(process.env.DATABASE_URL!).connectionString });
      await client.connect();
      try {
        const rows = await client.query(`SELECT count(*)::int AS n FROM "${schema}"._migrations`);
        expect(rows.rows[0].n).toBe(listMigrations().length);
        expect((await fetch(`${a.url}/api/v1/health`)).status).toBe(200);
        expect((await fetch(`${b.url}/api/v1/health`)).status).toBe(200);
      } finally {
        await Promise.all([a.stop(), b.stop()]);
        await client.query(`DROP SCHEMA "${schema}" CASCADE`);
        await client.end();
      }
    },
  );
});
