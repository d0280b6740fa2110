import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES as ENDPOINTS } from '../server/api/routes';
import { startTestApp, type TestApp } from './harness';
import { newWallet, signIn } from './wallets';

// No path, method, header or body sent to /api may produce a 500 or an HTML page.
let app: TestApp;
let token = '';
beforeAll(async () => {
  app = await startTestApp({ RATE_LIMIT_AUTH: '100000/1m', RATE_LIMIT_WRITE: '100000/1m' });
  token = (await signIn(app, newWallet())).token;
});
afterAll(() => app.close());

const weird = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '%00',
    '..',
    '%2e%2e',
    'null',
    'undefined',
    '-1',
    '1e309',
    "' OR 1=1 --",
    '𝕏'.repeat(10),
    'a'.repeat(3000),
  ),
  fc.uuid(),
);

const RAW_BODIES = new Set(['{', '{"a":', '[1,2', 'nul', '\u0000', '{"__proto__": {"x": 1}}', '"string"', '1e999', '']);

const jsonish = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constantFrom(...RAW_BODIES));

/** The broken bodies are sent as they are; everything else as JSON. */
function bodyFor(value: unknown): string {
  return typeof value === 'string' && RAW_BODIES.has(value) ? value : JSON.stringify(value);
}

/** A body that keeps each documented field but gives it a random value of a random type. */
const fieldSoup = fc.dictionary(
  fc.constantFrom(
    'agentName',
    'walletAddress',
    'message',
    'signature',
    'handle',
    'bio',
    'avatar_url',
    'owner_wallet',
    'agent_pubkey',
    'requested_scopes',
    'max_spend_claw_per_day',
    'challenge_id',
    'agent_name',
    'scopes',
    'metadata',
    'price_claw_per_call',
    'status',
    'is_callable',
    'invoke_url',
    'invoke_schema',
    'label',
    'key_id',
    'caller_wallet',
    'payload',
    'timeout_ms',
    'social_handles',
    'twitter_handle',
  ),
  fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.double(), fc.constantFrom(-1, 0, 1e21, 0.0000001, Number.MAX_SAFE_INTEGER)),
);

const authHeaders = fc.oneof(
  fc.constant({} as Record<string, string>),
  fc.constant({ authorization: `Bearer ${'x'}` }),
  fc.string({ maxLength: 60 }).map((s) => ({ authorization: `Bearer ${s.replace(/[\r\n]/g, '')}` })),
  fc.constant({ 'x-api-key': 'ck_' + 'A'.repeat(46) }),
  fc.constant({
    'x-agent-address': '0x' + '1'.repeat(40),
    'x-agent-message': 'hi 1',
    'x-message-signature': '0x' + '00'.repeat(65),
  }),
  fc.constant({ 'x-agent-address': 'nope', 'x-agent-message': 'x', 'x-message-signature': 'y' }),
  fc.constant({ authorization: 'VALID' }),
);

describe('malformed requests', () => {
  it('never answer 500 or HTML, and always in the error shape', async () => {
    const samples = fc.sample(
      fc.record({
        endpoint: fc.constantFrom(...ENDPOINTS),
        method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'),
        useOwnMethod: fc.boolean(),
        param: weird,
        query: fc.dictionary(
          fc.constantFrom('limit', 'offset', 'wallet', 'tier', 'search', 'q', 'with_metrics', 'is_callable'),
          weird,
        ),
        body: fc.oneof(jsonish, fieldSoup),
        headers: authHeaders,
      }),
      { seed: 424242, numRuns: 400 },
    );
    const failures: string[] = [];
    for (const sample of samples) {
      const method = sample.useOwnMethod ? sample.endpoint.method.toUpperCase() : sample.method;
      const path = sample.endpoint.path.replace(/\{[^}]+\}/g, encodeURIComponent(sample.param));
      const query = new URLSearchParams(sample.query).toString();
      const headers: Record<string, string> = { 'content-type': 'application/json', ...sample.headers };
      if (headers.authorization === 'VALID') headers.authorization = `Bearer ${token}`;
      const raw = method === 'GET' || method === 'HEAD' ? undefined : bodyFor(sample.body);
      const response = await app.request(method, `${path}${query ? `?${query}` : ''}`, { raw, headers });
      const label = `${method} ${path.slice(0, 80)} -> ${response.status}`;
      // 503 chain_unavailable is the honest answer of a chain endpoint on this chainless app
      const code =
        method === 'HEAD'
          ? (await app.request('GET', `${path}${query ? `?${query}` : ''}`, { headers })).body?.code
          : response.body?.code;
      const noChain = response.status === 503 && code === 'chain_unavailable';
      if (response.status >= 500 && response.status !== 502 && response.status !== 504 && !noChain)
        failures.push(`${label} ${response.text.slice(0, 200)}`);
      if (method === 'HEAD' || response.status === 204) continue;
      // The event stream answers 200 text/event-stream to a valid token.
      if (response.status === 200 && response.headers.get('content-type')?.startsWith('text/event-stream')) continue;
      if (!(response.headers.get('content-type') ?? '').includes('application/json')) failures.push(`${label} not JSON`);
      if (response.status >= 400 && (typeof response.body?.error !== 'string' || typeof response.body?.code !== 'string')) {
        failures.push(`${label} not in the error shape: ${response.text.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuse a raw path soup under /api with JSON 404s', async () => {
    const paths = fc.sample(fc.webPath(), { seed: 7, numRuns: 100 });
    for (const path of paths) {
      const response = await app.get(`/api${path.startsWith('/') ? path : `/${path}`}`);
      expect(response.status).toBeLessThan(500);
      expect(response.headers.get('content-type')).toContain('application/json');
    }
  });
});

// Regressions of the first adversarial probe (security issue): each test failed before its fix.
describe('input PostgreSQL cannot store is a 400 naming the field', () => {
  const agents = async () => (await app.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM agents'))[0]!.n;

  it('refuses NUL characters, lone surrogates and deep nesting everywhere, and changes nothing', async () => {
    const { token } = await signIn(app, newWallet());
    const before = await agents();
    const deep = `{"agent_name":"Deep","metadata":${'{"x":'.repeat(2_000)}{}${'}'.repeat(2_000)}}`;
    const json = { 'content-type': 'application/json' };
    const cases = [
      () => app.get('/api/agents?search=%00'),
      () => app.get('/api/v1/agents?q=a%00b'),
      () => app.get('/api/agents/%00'),
      () => app.post('/api/v1/agents', { agent_name: 'nul\u0000name' }, { token }),
      () => app.post('/api/v1/agents', { agent_name: 'lone \ud800 surrogate' }, { token }),
      () => app.request('POST', '/api/v1/agents', { raw: deep, token, headers: json }),
      () => app.post('/api/v1/agents', { agent_name: 'Key', metadata: { 'a\u0000b': 1 } }, { token }),
    ];
    for (const send of cases) {
      const response = await send();
      expect(response.status, response.text).toBe(400);
      expect(Object.keys(response.body.details.fields ?? {}).length).toBeGreaterThan(0);
    }
    expect(await agents()).toBe(before);
  });
});
