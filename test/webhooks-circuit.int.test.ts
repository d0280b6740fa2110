import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database, withTransaction } from '../server/core/db';
import { emit } from '../server/events/emit';
import { runWebhooks, webhookSettings } from '../server/webhooks/deliver-webhooks';
import { startTestApp, type TestApp } from './harness';
import { newWallet, signIn } from './wallets';

// Circuit breaking of a dead webhook receiver (issue 23, backpressure): after WEBHOOK_CIRCUIT_AFTER
// failed attempts in a row the webhook's backlog waits (no attempt is made, none is counted) until
// its pause ends; then one attempt probes it, and a success sends the rest. Driven with a test clock.

let app: TestApp;
let receiver: Server;
let receiverUrl: string;
let answer = 503;
let hits = 0;

beforeAll(async () => {
  app = await startTestApp({ SERVICE_NETWORK: 'testnet', WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_CIRCUIT_AFTER: '5' });
  receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      hits++;
      response.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await app.close();
});

const at = (offsetMs: number) => new Date(Date.now() + offsetMs);

async function hookState(id: string) {
  const [row] = await database().sql.query<{ failed_attempts: number; paused_until: Date | null }>(
    'SELECT failed_attempts, paused_until FROM webhooks WHERE id = $1',
    [id],
  );
  const [deliveries] = await database().sql.query<{ attempts: number; untried: number; delivered: number }>(
    `SELECT coalesce(sum(attempts), 0)::int AS attempts, count(*) FILTER (WHERE attempts = 0)::int AS untried,
       count(*) FILTER (WHERE status = 'delivered')::int AS delivered
     FROM webhook_deliveries WHERE webhook_id = $1`,
    [id],
  );
  return { ...row!, ...deliveries! };
}

describe('webhook circuit breaking', () => {
  it('pauses a failing receiver’s backlog after 5 failed attempts, probes it one attempt at a time, and sends everything once it answers', async () => {
    const session = await signIn(app, newWallet());
    await app.post('/api/v1/agents', { agent_name: 'Circuit' }, { token: session.token });
    const hook = await app.post(
      '/api/v1/webhooks',
      { url: `${receiverUrl}/hook`, events: ['skill.published'] },
      { token: session.token },
    );
    expect(hook.status).toBe(201);
    for (let i = 0; i < 30; i++) await withTransaction((tx) => emit('skill.published', { n: i }, tx.sql));

    // Failing: at most 4 in flight, so the circuit opens after the 5th to 8th failed attempt.
    const start = Date.now();
    await runWebhooks(app.database, webhookSettings(app.runtime));
    const opened = await hookState(hook.body.id);
    expect(hits).toBe(opened.attempts);
    expect(opened.attempts).toBeGreaterThanOrEqual(5);
    expect(opened.attempts).toBeLessThanOrEqual(8);
    expect(opened.failed_attempts).toBe(opened.attempts);
    expect(opened.untried).toBe(30 - opened.attempts);
    // 1 s doubling from the 5th failure.
    const pause = new Date(opened.paused_until!).getTime() - start;
    expect(pause).toBeGreaterThanOrEqual(1000 * 2 ** (opened.attempts - 5) - 100);

    // While paused nothing is attempted (the backlog keeps its attempts).
    await runWebhooks(app.database, webhookSettings(app.runtime));
    expect((await hookState(hook.body.id)).attempts).toBe(opened.attempts);

    // After the pause: one probe at a time; a failed probe doubles the pause.
    const afterPause = new Date(opened.paused_until!).getTime() - Date.now() + 100;
    await runWebhooks(app.database, webhookSettings(app.runtime), at(afterPause));
    const probed = await hookState(hook.body.id);
    expect(probed.attempts).toBe(opened.attempts + 1);
    expect(probed.failed_attempts).toBe(opened.attempts + 1);
    expect(new Date(probed.paused_until!).getTime()).toBeGreaterThan(new Date(opened.paused_until!).getTime());

    // The receiver answers again: the next probe succeeds, the circuit closes and every event is
    // delivered (the failed ones' retries come due at 30 s).
    answer = 200;
    await runWebhooks(app.database, webhookSettings(app.runtime), at(31_000 + 600_000));
    const closed = await hookState(hook.body.id);
    expect(closed).toMatchObject({ failed_attempts: 0, paused_until: null, delivered: 30 });
    expect(hits).toBe(closed.attempts);
  }, 180_000);
});
