import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi } from '../server/api/app';
import { ROUTES as ENDPOINTS } from '../server/api/routes';
import { startTestApp, type TestApp } from './harness';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ RATE_LIMIT_AUTH: '3/1m' });
});
afterAll(() => app.close());

const agentCount = async () =>
  Number((await app.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM agents'))[0]!.n);

describe('health', () => {
  it('answers ok with the number of failing self-checks', async () => {
    const response = await app.get('/api/v1/health');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'ok', issues_count: 0 });
    expect(response.body.checks).toContainEqual({ name: 'database', ok: true });
  });

  it('answers the next report once the checks ran again (each report is serialized once, then reused)', async () => {
    const first = await app.get('/api/v1/health');
    expect((await app.get('/api/v1/health')).status).toBe(200);
    let next = first;
    for (const until = Date.now() + 10_000; next.body.checked_at === first.body.checked_at && Date.now() < until;) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      next = await app.get('/api/v1/health');
    }
    expect(Date.parse(next.body.checked_at)).toBeGreaterThan(Date.parse(first.body.checked_at));
    expect(next.body).toMatchObject({ status: 'ok', issues_count: 0 });
  });

  it('puts an X-Request-Id on every response, keeping a sane incoming one', async () => {
    const generated = await app.get('/api/v1/health');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await app.get('/api/nope', { headers: { 'X-Request-Id': 'trace-123' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-123');
    const replaced = await app.get('/api/v1/health', { headers: { 'X-Request-Id': 'bad id with spaces' } });
    expect(replaced.headers.get('x-request-id')).not.toBe('bad id with spaces');
  });

  it('serves over a real HTTP server too', async () => {
    const base = await app.listen();
    const response = await fetch(`${base}/api/v1/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok' });
  });
});

describe('headers on every answer under node:http', () => {
  it('carries X-Request-Id and the CORS headers on a success, a 404 and a preflight', async () => {
    const base = await app.listen();
    for (const [path, init] of [
      ['/api/v1/health', {}],
      ['/api/nope', {}],
      ['/api/v1/credits', { method: 'OPTIONS', headers: { 'Access-Control-Request-Method': 'GET', Origin: 'https://a.test' } }],
    ] as const) {
      const response = await fetch(`${base}${path}`, init);
      await response.arrayBuffer();
      expect(response.headers.get('x-request-id'), path).toMatch(/^[0-9a-f-]{36}$/);
      expect(response.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(response.headers.get('access-control-expose-headers'), path).toContain('X-Request-Id');
    }
    const kept = await fetch(`${base}/api/v1/health`, { headers: { 'X-Request-Id': 'trace-456' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-456');
    expect(kept.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe('unknown routes', () => {
  it('answers 404 in the error shape for an unknown path', async () => {
    const response = await app.get('/api/does-not-exist');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.body).toEqual({ error: expect.any(String), code: 'not_found', details: {} });
  });

  it('answers 405 with Allow for a known path and another method', async () => {
    const response = await app.request('DELETE', '/api/v1/health');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
    expect(response.body.code).toBe('method_not_allowed');
  });

  it('answers CORS preflights for API paths', async () => {
    const response = await app.request('OPTIONS', '/api/v1/agents', {
      headers: {
        Origin: 'https://agent.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
  });
});

describe('input errors', () => {
  it('refuses malformed JSON with 400 and writes nothing', async () => {
    const before = await agentCount();
    const response = await app.request('POST', '/api/register-agent', {
      raw: '{"agentName": "x",',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('invalid_json');
    expect(await agentCount()).toBe(before);
  });

  it('names every offending field on wrong types', async () => {
    const response = await app.post('/api/register-agent', { agentName: 5, walletAddress: 'nope', message: [], signature: null });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('invalid_request');
    expect(Object.keys(response.body.details.fields).sort()).toEqual(['agentName', 'message', 'signature', 'walletAddress']);
  });

  it('refuses a NUL in a query it reads with 400 naming the field, and ignores the query of an endpoint that reads none', async () => {
    const refused = await app.get('/api/agents?search=%00');
    expect(refused.status).toBe(400);
    expect(refused.body.details.fields).toHaveProperty('search');
    // Found by the fuzz: a 400 that GET /api/v1/health does not document.
    const ignored = await app.get('/api/v1/health?%00=%01');
    expect(ignored.status).toBe(200);
  });

  it('refuses unknown enum values in the query with 400', async () => {
    const response = await app.get('/api/agents?tier=platinum');
    expect(response.status).toBe(400);
    expect(response.body.details.fields).toHaveProperty('tier');
  });

  it('refuses a body over the size limit with 413', async () => {
    const response = await app.post('/api/v1/auth/challenge', {
      owner_wallet: '0x' + '1'.repeat(40),
      agent_pubkey: 'x'.repeat(70_000),
    });
    expect(response.status).toBe(413);
    expect(response.body.code).toBe('payload_too_large');
  });
});

describe('rate limiting', () => {
  it('answers 429 with an integer Retry-After and RateLimit headers past the policy', async () => {
    const body = { owner_wallet: '0x' + '2'.repeat(40), agent_pubkey: 'rate-limit-test' };
    const responses = [];
    for (let i = 0; i < 4; i++) responses.push(await app.post('/api/v1/auth/challenge', body));
    expect(responses.slice(0, 3).map((r) => r.status)).toEqual([200, 200, 200]);
    expect(responses[0]!.headers.get('ratelimit-limit')).toBe('3');
    expect(responses[2]!.headers.get('ratelimit-remaining')).toBe('0');
    const limited = responses[3]!;
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  });
});

describe('OpenAPI document', () => {
  it('documents exactly the routes that are served', async () => {
    const response = await app.get('/api/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    const documented = new Set<string>();
    for (const [path, item] of Object.entries(response.body.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(item)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    const served = new Set(
      createApi()
        .routes.filter(
          (route) =>
            route.method !== 'ALL' &&
            !['/api/openapi.json', '/api/docs', '/api/docs/scalar.js', '/docs'].includes(route.path) &&
            // machine documents (the A2A card, RFC 9728 metadata), not API operations
            !route.path.startsWith('/.well-known/'),
        )
        .map((route) => `${route.method} ${route.path.replace(/:([^/]+)/g, '{$1}')}`),
    );
    expect([...served].sort()).toEqual([...documented].sort());
    expect(documented.size).toBe(ENDPOINTS.length);
  });

  it('serves the interactive reference and its script from our own origin', async () => {
    const page = await app.get('/api/docs');
    expect(page.status).toBe(200);
    expect(page.text).toContain('/api/openapi.json');
    const script = await app.request('GET', '/api/docs/scalar.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
  });
});
