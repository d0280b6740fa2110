// server.ts answers a declared JSON endpoint straight from node's request (server/http/node-door.ts)
// and everything else through Hono. The same request must get the same answer either way: each case
// here goes over a real socket once to the app served entirely through Hono and @hono/node-server
// (server.ts's door before the node door) and once to the node listener server.ts serves now, and the
// two answers are compared (status, body, headers).
import { createServer, request as httpRequest, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi } from '../server/api/app';
import { ROUTES } from '../server/api/routes';
import { nodeDoor } from '../server/http/node-door';
import { routeTable } from '../server/http/route-table';
import { startTestApp, type TestApp } from './harness';
import { clawBalance, fund } from './money';
import { newWallet, signatureHeaders, signIn } from './wallets';

let app: TestApp;
let base: string;
let honoBase: string;
const servers: Server[] = [];
let token: string;
/** Requests the node door passed on to Hono. */
let passedOn = 0;

async function serve(listener: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

beforeAll(async () => {
  app = await startTestApp({ SERVICE_NETWORK: 'testnet' });
  const api = createApi();
  const hono = getRequestListener(api.fetch);
  // server.ts's listener (server/api/app.ts nodeListener), counting what it passes on to Hono.
  base = await serve(
    nodeDoor(routeTable(ROUTES), (incoming, outgoing) => {
      passedOn++;
      void hono(incoming, outgoing);
    }),
  );
  honoBase = await serve(hono);
  token = (await signIn(app, newWallet())).token;
});
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await app.close();
});

interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  body: unknown;
}

interface Sent {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Sends the request as written (fetch would resolve dot segments and drop a fragment first). */
function send(origin: string, path: string, init: Sent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${origin}${path}`, { method: init.method ?? 'GET', headers: init.headers, path }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          // not JSON: compared as text
        }
        const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, String(value)]));
        resolve({ status: response.statusCode!, headers, text, body });
      });
    });
    request.on('error', reject);
    request.end(init.body);
  });
}

// Values that differ per request (and the length of a body that does).
const PER_REQUEST = new Set(['x-request-id', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after', 'date', 'content-length']);

/** Values that differ between two runs of the same request (ids, times, nonces) become their kind. */
function shape(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => shape(item, key));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, shape(item, name)]));
  }
  if (typeof value === 'string' && /(^|_)(id|at|nonce|challenge|token|key)$|^request_id$|^message$/.test(key)) return '<varies>';
  if (typeof value === 'string') return value.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>');
  return value;
}

/**
 * The request through both doors; the answers must agree. `door` is the one that must have answered
 * on server.ts's listener: the node door itself, or Hono behind it. Returns the listener's answer.
 */
async function same(path: string, init: Sent = {}, { exactBody = true, door = 'node' } = {}): Promise<Answer> {
  const viaHono = await send(honoBase, path, init);
  const before = passedOn;
  const viaNode = await send(base, path, init);
  const label = `${init.method ?? 'GET'} ${path}`;
  expect(passedOn > before ? 'hono' : 'node', `${label}: answered by`).toBe(door);
  expect(viaNode.status, label).toBe(viaHono.status);
  expect(shape(viaNode.body), label).toEqual(exactBody ? shape(viaHono.body) : expect.anything());
  const names = (answer: Answer) => Object.keys(answer.headers).sort();
  expect(names(viaNode), label).toEqual(names(viaHono));
  for (const name of names(viaNode)) {
    if (!PER_REQUEST.has(name)) expect(viaNode.headers[name], `${label}: ${name}`).toBe(viaHono.headers[name]);
  }
  if (viaNode.text) expect(Number(viaNode.headers['content-length']), label).toBe(Buffer.byteLength(viaNode.text));
  return viaNode;
}

const json = (method: string, body: unknown, headers: Record<string, string> = {}) => ({
  method,
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('the node door answers as the Hono door does', () => {
  it('public reads, with and without a trailing slash, a query or a request id', async () => {
    await same('/api/v1/health');
    await same('/api/v1/health/');
    await same('/api/v1/health?verbose=1');
    await same('/api/v1/health/live');
    const traced = await same('/api/v1/health', { headers: { 'X-Request-Id': 'door-trace-1' } });
    expect(traced.headers['x-request-id']).toBe('door-trace-1');
    const untraced = await same('/api/v1/health', { headers: { 'X-Request-Id': 'not a token!' } });
    expect(untraced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('query strings: refusals, the first of repeated parameters, escapes and plus signs', async () => {
    expect((await same('/api/agents?limit=abc')).status).toBe(400);
    expect((await same('/api/agents?limit=1&limit=abc')).status).toBe(200);
    expect((await same('/api/agents?search=a%20b&limit=2')).status).toBe(200);
    expect((await same('/api/agents?search=a+b%2B&limit=2')).status).toBe(200);
    expect((await same('/api/agents?search=%00')).status).toBe(400);
    expect((await same('/api/agents?limit=%zz')).status).toBe(400);
  });

  it('path parameters, including escaped ones (which Hono answers)', async () => {
    await same('/api/v1/agents/not-an-agent');
    await same(`/api/v1/agents/${crypto.randomUUID()}`);
    await same('/api/v1/agents/%6eot-an-agent', {}, { door: 'hono' });
    await same('/api/v1/agents/a%2Fb', {}, { door: 'hono' });
    await same('/api/v1/agents/./x/../y', {}, { door: 'hono' });
  });

  it('credentials: none, a bad one, a valid one, signature headers', async () => {
    expect((await same('/api/v1/credits')).status).toBe(401);
    expect((await same('/api/v1/credits', { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    expect((await same('/api/v1/credits', { headers: { authorization: 'Basic dXNlcjpwYXNz' } })).status).toBe(401);
    expect((await same('/api/v1/credits', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await same('/api/v1/credits', { headers: { 'x-api-key': 'ck_nope' } })).status).toBe(401);
    const signed = await signatureHeaders(newWallet(), 'Read credits');
    await same('/api/v1/credits', { headers: signed });
  });

  it('bodies: valid, empty, malformed, too large, unsafe', async () => {
    const challenge = { owner_wallet: newWallet().address, agent_pubkey: 'door-pk' };
    expect((await same('/api/v1/auth/challenge', json('POST', challenge))).status).toBe(200);
    expect((await same('/api/v1/auth/challenge', json('POST', ''))).status).toBe(400);
    expect((await same('/api/v1/auth/challenge', json('POST', '{"owner_wallet":'))).status).toBe(400);
    expect((await same('/api/v1/auth/challenge', json('POST', { ...challenge, agent_name: 'x'.repeat(70_000) }))).status).toBe(
      413,
    );
    expect((await same('/api/v1/auth/challenge', json('POST', { ...challenge, agent_name: 'a\u0000b' }))).status).toBe(400);
    expect((await same('/api/v1/auth/challenge', { method: 'POST', body: JSON.stringify(challenge) })).status).toBe(200);
  });

  it('idempotent writes: a repeat is replayed and moves money once, a reused key for another body refused', async () => {
    const poster = newWallet();
    const { token: posterToken } = await signIn(app, poster);
    await app.post('/api/v1/agents', { agent_name: 'Door poster' }, { token: posterToken });
    await fund(poster.address, 100);
    const job = (bounty: number) => ({
      title: 'Audit a token',
      description: 'Check it',
      required_skill: 'security',
      bounty_claw: bounty,
    });
    const headers = { authorization: `Bearer ${posterToken}`, 'Idempotency-Key': 'door-1' };
    const first = await fetch(`${base}/api/v1/jobs`, json('POST', job(30), headers));
    expect(first.status).toBe(201);
    expect(first.headers.get('ratelimit-limit')).toMatch(/^\d+$/);
    const again = await fetch(`${base}/api/v1/jobs`, json('POST', job(30), headers));
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(await first.json());
    expect(await clawBalance(poster.address)).toBe(70);
    const other = await fetch(`${base}/api/v1/jobs`, json('POST', job(31), headers));
    expect(other.status).toBe(422);
    expect((await same('/api/v1/jobs', json('POST', job(30), { ...headers, 'Idempotency-Key': 'bad key' }))).status).toBe(400);
    expect(await clawBalance(poster.address)).toBe(70);
  });

  it('a 204 answer, and the RateLimit headers on a limited endpoint', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const created = await app.post('/api/webhooks', { url: 'http://127.0.0.1:9/c', events: ['agent.registered'] }, { token });
    const deleted = await fetch(`${base}/api/webhooks/${created.body.id}`, { method: 'DELETE', headers: auth });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    expect(deleted.headers.get('ratelimit-limit')).toMatch(/^\d+$/);
    expect(deleted.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    await same(`/api/webhooks/${crypto.randomUUID()}`, { method: 'DELETE', headers: auth });
  });

  it('answers a handler returns itself (MCP), and a handler reading the request', async () => {
    await same('/api/v1/mcp');
    await same('/api/v1/mcp', { headers: { accept: 'text/event-stream' } });
    const list = await same('/api/v1/mcp', json('POST', { jsonrpc: '2.0', id: 1, method: 'tools/list' }), { exactBody: false });
    expect(list.status).toBe(200);
  });

  it('what the node door passes to Hono: other methods, preflights, unknown paths, the document', async () => {
    const hono = { door: 'hono' };
    expect((await same('/api/v1/health', { method: 'POST' }, hono)).status).toBe(405);
    expect((await same('/api/v1/health', { method: 'HEAD' }, hono)).status).toBe(200);
    const preflight = await same(
      '/api/v1/health',
      { method: 'OPTIONS', headers: { 'Access-Control-Request-Method': 'POST', Origin: 'https://example.org' } },
      hono,
    );
    expect(preflight.status).toBe(204);
    expect((await same('/api/nope', {}, hono)).status).toBe(404);
    expect((await same('/api/openapi.json', {}, { exactBody: false, door: 'hono' })).status).toBe(200);
    expect((await same('/api/v1/stream', {}, hono)).status).toBe(401);
    expect((await same('/api/v1/health#top', {}, hono)).status).toBe(200);
    expect((await same('/api/v1/health', { headers: { host: 'LOCALHOST' } })).status).toBe(200);
  });
});
