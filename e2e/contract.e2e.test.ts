import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The e2e project's setup (e2e/contract-setup.ts) checks every /api answer a suite fetches against
// the OpenAPI document. Here a fake server answers wrongly, and the fetch must fail.
let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    if (request.url === '/api/v1/health') return response.end(JSON.stringify({ status: 'ok' }));
    if (request.url === '/api/v1/credits') {
      response.statusCode = 418;
      return response.end(JSON.stringify({ error: 'x', code: 'x', details: {} }));
    }
    if (request.url === '/not-api') return response.end('{}');
    response.statusCode = 404;
    response.end(JSON.stringify({ error: 'No route', code: 'not_found', details: {} }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('e2e responses', () => {
  it('are checked against the OpenAPI document: a body or status it does not document fails the fetch', async () => {
    await expect(fetch(`${base}/api/v1/health`)).rejects.toThrow(/does not match the documented schema/);
    await expect(fetch(`${base}/api/v1/credits`)).rejects.toThrow(/status not documented/);
    expect((await fetch(`${base}/api/unknown`)).status).toBe(404);
    expect((await fetch(`${base}/not-api`)).status).toBe(200);
  });
});
