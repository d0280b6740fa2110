// POST /api/v1/verify/agent-card never fetches private, loopback or metadata addresses (issue 24 item 6).
// Its own file: it needs a runtime without ALLOW_PRIVATE_URLS (the production address rule).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startForeignHost, type ForeignHost } from './a2a-foreign-host';
import { startTestApp, type TestApp } from './harness';

let strict: TestApp;
let foreign: ForeignHost;

beforeAll(async () => {
  [strict, foreign] = await Promise.all([
    startTestApp({ ALLOW_PRIVATE_URLS: 'false', SERVICE_NETWORK: 'mainnet' }),
    startForeignHost(),
  ]);
});
afterAll(async () => {
  await Promise.all([strict.close(), foreign.close()]);
});

describe('POST /api/v1/verify/agent-card address policy', () => {
  it('refuses to fetch private, loopback and metadata addresses (SSRF)', async () => {
    const before = foreign.requests.length;
    for (const url of [
      `${foreign.origin}/.well-known/agent-card.json`,
      'https://127.0.0.1/.well-known/agent-card.json',
      'https://10.0.0.7/card.json',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/card.json',
      'https://localhost/card.json',
      'https://user:pw@example.com/card.json',
      'ftp://example.com/card.json',
    ]) {
      const answer = await strict.post('/api/v1/verify/agent-card', { url });
      expect(answer.status, url).toBe(400);
      expect(answer.body.code, url).toBe('invalid_request');
    }
    // Inside a card, private jku and interface hosts are reasons; nothing is fetched.
    const card = await foreign.sign(foreign.unsignedCard());
    const answer = await strict.post('/api/v1/verify/agent-card', { card });
    expect(answer.status).toBe(200);
    expect(answer.body.valid).toBe(false);
    expect(answer.body.checked.signature.detail).toMatch(/refused/);
    expect(answer.body.checked.domain.detail).toMatch(/refused/);
    const metadata = await foreign.sign(foreign.unsignedCard(), { jku: 'https://169.254.169.254/jwks' });
    const viaMetadata = await strict.post('/api/v1/verify/agent-card', { card: metadata });
    expect(viaMetadata.body.checked.signature.detail).toMatch(/refused/);
    expect(foreign.requests.length).toBe(before);
  });
});
