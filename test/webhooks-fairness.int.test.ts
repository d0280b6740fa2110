import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../server/core/db';
import { emit } from '../server/events/emit';
import { PER_RECEIVER, startWebhookWorker } from '../server/webhooks/deliver-webhooks';
import { startTestApp, type TestApp } from './harness';
import { newWallet, signIn } from './wallets';

// Issue 19: deliveries were settled in batches of 50 that waited for the slowest receiver, so three
// receivers answering after 9.5 s (within the 10 s limit) held up everyone else's deliveries. Here
// the in-process worker (as server.ts runs it) faces 1,800 queued deliveries to three such receivers
// while a fast receiver's events keep coming: each fast delivery must arrive within 2 s (p99), and
// no slow receiver ever has more than PER_RECEIVER attempts in flight. In its own file: it needs the
// default 10 s webhook timeout and a running worker, unlike test/webhooks.int.test.ts.

const SLOW_MS = 9500;
const QUEUED_PER_SLOW = 600;
const FAST_EVENTS = 30;

let app: TestApp;
let receiver: Server;
let receiverUrl = '';
const inFlight = new Map<string, number>();
const maxInFlight = new Map<string, number>();
const slowAnswered = new Map<string, number>();
const fastLatency: number[] = [];

beforeAll(async () => {
  app = await startTestApp({ SERVICE_NETWORK: 'testnet' });
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      if (path === '/fast') {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { sent_at: number } };
        fastLatency.push(Date.now() - event.data.sent_at);
        return void response.writeHead(200).end('ok');
      }
      const now = (inFlight.get(path) ?? 0) + 1;
      inFlight.set(path, now);
      maxInFlight.set(path, Math.max(maxInFlight.get(path) ?? 0, now));
      setTimeout(() => {
        inFlight.set(path, inFlight.get(path)! - 1);
        slowAnswered.set(path, (slowAnswered.get(path) ?? 0) + 1);
        response.writeHead(200).end('late but fine');
      }, SLOW_MS);
    });
  });
  receiver.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await app.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function hook(path: string, events: string[]) {
  const session = await signIn(app, newWallet());
  const created = await app.post('/api/v1/webhooks', { url: `${receiverUrl}${path}`, events }, { token: session.token });
  expect(created.status).toBe(201);
}

describe('webhook delivery fairness', () => {
  it('three receivers answering after 9.5 s with 1,800 deliveries queued never delay a fast receiver past 2 s (p99)', async () => {
    for (const n of [1, 2, 3]) await hook(`/slow-${n}`, ['skill.published']);
    await hook('/fast', ['job.posted']);
    await withTransaction(async (tx) => {
      for (let i = 0; i < QUEUED_PER_SLOW; i++) await emit('skill.published', { n: i }, tx.sql);
    });
    const stop = startWebhookWorker(app.runtime, 1000);
    try {
      // The slow receivers are busy before the fast events start.
      while ([1, 2, 3].some((n) => !inFlight.get(`/slow-${n}`))) await sleep(100);
      for (let i = 0; i < FAST_EVENTS; i++) {
        await withTransaction((tx) => emit('job.posted', { n: i, sent_at: Date.now() }, tx.sql));
        await sleep(300);
      }
      // Until every fast event arrived and every slow receiver answered once (9.5 s after its first call).
      const deadline = Date.now() + 20_000;
      const waiting = () => fastLatency.length < FAST_EVENTS || [1, 2, 3].some((n) => !slowAnswered.get(`/slow-${n}`));
      while (waiting() && Date.now() < deadline) await sleep(100);
    } finally {
      stop();
    }
    const sorted = [...fastLatency].sort((a, b) => a - b);
    const p99 = sorted[Math.ceil(0.99 * sorted.length) - 1]!;
    console.log(
      `webhook fairness: fast p50 ${sorted[Math.floor(sorted.length / 2)]} ms, p99 ${p99} ms; slow in flight at most`,
      Object.fromEntries(maxInFlight),
    );
    expect(fastLatency).toHaveLength(FAST_EVENTS);
    expect(p99).toBeLessThan(2000);
    // Every slow receiver was served (in turns), none beyond its share of attempts in flight.
    for (const n of [1, 2, 3]) {
      expect(maxInFlight.get(`/slow-${n}`)).toBeLessThanOrEqual(PER_RECEIVER);
      expect(slowAnswered.get(`/slow-${n}`) ?? 0).toBeGreaterThan(0);
    }
    // Let the attempts still in flight end and settle before the database closes.
    receiver.closeAllConnections();
    await sleep(1000);
  }, 90_000);
});
