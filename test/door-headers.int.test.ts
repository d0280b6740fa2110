// The headers every answer carries when it comes through node:http (server.ts's fast door): a declared
// endpoint's JSON answer carries them in its own header object (server/http/common-headers.ts), every
// other answer gets them on the node response. Checked over a real socket, not through fetch(app).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness';

let app: TestApp;
let base: string;
beforeAll(async () => {
  app = await startTestApp({ RATE_LIMIT_AUTH: '2/1m' });
  base = await app.listen();
});
afterAll(() => app.close());

function expectCommon(response: Response, requestId?: string): void {
  if (requestId) expect(response.headers.get('x-request-id')).toBe(requestId);
  else expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  expect(response.headers.get('access-control-expose-headers')).toContain('RateLimit-Remaining');
}

describe('headers through node:http', () => {
  it('puts the request id and CORS headers on a declared JSON answer, with one Content-Type', async () => {
    const response = await fetch(`${base}/api/v1/health`);
    expect(response.status).toBe(200);
    expectCommon(response);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(await response.text()));
    const traced = await fetch(`${base}/api/v1/health`, { headers: { 'X-Request-Id': 'trace-door-1' } });
    expectCommon(traced, 'trace-door-1');
  });

  it('keeps a handler header next to them', async () => {
    const response = await fetch(`${base}/api/v1/mcp`);
    expect(response.status).toBe(200);
    expectCommon(response);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(response.headers.get('content-type')).toBe('application/json');
  });

  it('puts them on errors, unknown paths, other methods and preflights', async () => {
    const invalid = await fetch(`${base}/api/agents?limit=abc`, { headers: { 'X-Request-Id': 'trace-door-2' } });
    expect(invalid.status).toBe(400);
    expectCommon(invalid, 'trace-door-2');
    const unknown = await fetch(`${base}/api/nope`);
    expect(unknown.status).toBe(404);
    expectCommon(unknown);
    const method = await fetch(`${base}/api/v1/health`, { method: 'POST' });
    expect(method.status).toBe(405);
    expectCommon(method);
    const preflight = await fetch(`${base}/api/v1/health`, {
      method: 'OPTIONS',
      headers: { 'Access-Control-Request-Method': 'POST', Origin: 'https://example.org' },
    });
    expect(preflight.status).toBe(204);
    expectCommon(preflight);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('adds the RateLimit headers to a limited answer and to the 429 past the limit', async () => {
    const body = JSON.stringify({ owner_wallet: '0x' + '3'.repeat(40), agent_pubkey: 'door-headers' });
    const post = () =>
      fetch(`${base}/api/v1/auth/challenge`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    const first = await post();
    expect(first.status).toBe(200);
    expectCommon(first);
    expect(first.headers.get('ratelimit-limit')).toBe('2');
    expect(first.headers.get('ratelimit-remaining')).toBe('1');
    expect(first.headers.get('content-type')).toBe('application/json');
    await post();
    const refused = await post();
    expect(refused.status).toBe(429);
    expectCommon(refused);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
  });
});
