import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAIN_DEADLINE_MS, RPC_FAILURE_WINDOW_MS } from '../server/chain/client';
import { forgetAnalyses } from '../server/analyzer/analyze-request';
import { startTestChain, type TestChain } from './chain';
import { startTestApp, type TestApp } from './harness';
import { newWallet, signIn } from './wallets';

// Issue 23 item 3, the chain node gone or slow (docs/reliability.md): the API talks to a real anvil
// through a small JSON-RPC proxy of this test that can refuse connections (the node is down) or hold
// every request for 30 s (the node is slow). The analyzer, quotes and deposit claims answer 503
// chain_unavailable (with Retry-After) or 504 chain_timeout within CHAIN_DEADLINE_MS, in the error
// shape, never 500 and never a hang; health says degraded naming the chain; all recovers when the node
// answers again.

let chain: TestChain;
let app: TestApp;
let proxy: Server;
let port = 0;
let delayMs = 0;

function startProxy(listenPort: number): Promise<Server> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const forward = async () => {
        if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
        const upstream = await fetch(chain.rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: Buffer.concat(chunks),
        });
        const body = Buffer.from(await upstream.arrayBuffer());
        if (!response.destroyed) response.writeHead(upstream.status, { 'content-type': 'application/json' }).end(body);
      };
      forward().catch(() => response.destroy());
    });
  });
  return new Promise((resolve) => server.listen(listenPort, '127.0.0.1', () => resolve(server)));
}
const stopProxy = async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
};

beforeAll(async () => {
  chain = await startTestChain();
  proxy = await startProxy(0);
  port = (proxy.address() as AddressInfo).port;
  app = await startTestApp({ RATE_LIMIT_ANALYZE_FREE: '1000/1d' }, { chain: { ...chain, rpcUrl: `http://127.0.0.1:${port}` } });
}, 120_000);
afterAll(async () => {
  await stopProxy().catch(() => {});
  await app?.close();
  await chain?.stop();
});

describe('the chain node down or slow', () => {
  it('answers 503 when down and 504 when slow (never 500, never a hang), reports chain in health, and recovers', async () => {
    const session = await signIn(app, newWallet());
    const token = chain.deployment.platformToken;
    const requests = () => {
      forgetAnalyses();
      return {
        analyze: app.post('/api/analyze', { contract_address: token }),
        quote: app.get(`/api/v1/trade/quote?token_in=ETH&token_out=${token}&amount_in=0.01`, { token: session.token }),
        deposit: app.post(
          '/api/v1/credits/deposit',
          { tx_hash: `0x${randomBytes(32).toString('hex')}` },
          { token: session.token },
        ),
      };
    };
    const settle = async (started: ReturnType<typeof requests>) => {
      const startedAt = Date.now();
      const [analyze, quote, deposit] = await Promise.all([started.analyze, started.quote, started.deposit]);
      return { analyze, quote, deposit, ms: Date.now() - startedAt };
    };
    const health = async () =>
      (await app.get('/api/v1/health')).body as { status: string; checks: { name: string; ok: boolean }[] };

    // The node answers: the three work (an unknown deposit hash is 404 transaction_not_found).
    const up = await settle(requests());
    expect([up.analyze.status, up.quote.status, up.deposit.status], up.analyze.text + up.quote.text).toEqual([200, 200, 404]);

    // Down (connections refused): 503 chain_unavailable with Retry-After, in the error shape.
    await stopProxy();
    const down = await settle(requests());
    console.log(`chain-down: down answers in ${down.ms} ms`);
    for (const answer of [down.analyze, down.quote, down.deposit]) {
      expect(answer.status, answer.text).toBe(503);
      expect(answer.body).toMatchObject({ error: expect.any(String), code: 'chain_unavailable' });
      expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    expect(down.ms).toBeLessThan(CHAIN_DEADLINE_MS);
    const degraded = await health();
    expect(degraded.status).toBe('degraded');
    expect(degraded.checks.find((check) => check.name === 'chain')).toMatchObject({ ok: false });

    // Slow (every RPC held 30 s): 504 chain_timeout within the deadline (plus scheduling slack).
    delayMs = 30_000;
    proxy = await startProxy(port);
    const slow = await settle(requests());
    console.log(`chain-down: slow answers in ${slow.ms} ms (deadline ${CHAIN_DEADLINE_MS} ms)`);
    for (const answer of [slow.analyze, slow.quote, slow.deposit]) {
      expect(answer.status, answer.text).toBe(504);
      expect(answer.body).toMatchObject({ error: expect.any(String), code: 'chain_timeout' });
    }
    expect(slow.ms).toBeLessThan(CHAIN_DEADLINE_MS + 5_000);

    // Back: everything answers again and health is ok once the failure window has passed.
    delayMs = 0;
    await stopProxy();
    proxy = await startProxy(port);
    const back = await settle(requests());
    expect([back.analyze.status, back.quote.status, back.deposit.status], back.analyze.text).toEqual([200, 200, 404]);
    const healthyBy = Date.now() + RPC_FAILURE_WINDOW_MS + 10_000;
    while ((await health()).status !== 'ok' && Date.now() < healthyBy) await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await health()).checks.find((check) => check.name === 'chain')).toMatchObject({ ok: true });
  }, 150_000);
});
