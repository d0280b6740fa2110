// Closing a runtime (server.ts on SIGTERM, after draining): its scheduled jobs and webhook worker stop, and
// every closer runs even when an earlier one fails, so the database pool is always closed.
import { createServer } from 'node:http';
import { expect, it } from 'vitest';
import { withTransaction } from '../server/core/db';
import { emit } from '../server/events/emit';
import { ensureJobsStarted } from '../server/scheduler/jobs';
import { startTestApp } from './harness';
import { newWallet, signIn } from './wallets';

it('closes a runtime whose jobs and webhook worker run, without an error', async () => {
  const app = await startTestApp();
  ensureJobsStarted(app.runtime);
  // the worker's first pass and a sender of its own exist before the close
  await new Promise((resolve) => setTimeout(resolve, 200));
  await expect(app.close()).resolves.toBeUndefined();
});

it('runs every closer when one fails, then reports the failure', async () => {
  const app = await startTestApp();
  const ran: string[] = [];
  app.runtime.onClose(() => void ran.push('first registered'));
  app.runtime.onClose(() => {
    throw new Error('a closer failed');
  });
  app.runtime.onClose(() => void ran.push('last registered'));
  await expect(app.close()).rejects.toThrow('a closer failed');
  // closers run last registered first; the one registered before the failing one still ran
  expect(ran).toEqual(['last registered', 'first registered']);
  // and the database was closed after them
  await expect(app.runtime.database.sql.query('SELECT 1')).rejects.toThrow();
});

it('waits for a webhook attempt in flight before it closes the database', async () => {
  // testnet: webhooks may be plain http to a local receiver
  const app = await startTestApp({ SERVICE_NETWORK: 'testnet' });
  let arrived!: () => void;
  const requested = new Promise<void>((resolve) => (arrived = resolve));
  let answeredAt = 0;
  // A receiver that answers a second after the delivery arrives.
  const receiver = createServer((request, response) => {
    request.resume();
    arrived();
    setTimeout(() => {
      answeredAt = Date.now();
      response.writeHead(200).end('ok');
    }, 1000);
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    const session = await signIn(app, newWallet());
    const created = await app.post('/api/v1/webhooks', { url, events: ['job.posted'] }, { token: session.token });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    ensureJobsStarted(app.runtime);
    await withTransaction((tx) => emit('job.posted', { n: 1 }, tx.sql));
    await requested;
    // The close returns only after the receiver answered (and the attempt was settled before the database closed).
    await expect(app.close()).resolves.toBeUndefined();
    expect(answeredAt).toBeGreaterThan(0);
  } finally {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }
});
