import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database, withTransaction } from '../server/core/db';
import { emit } from '../server/events/emit';
import { startServer, type RunningServer } from '../e2e/server-process';
import { startTestApp, type TestApp } from './harness';
import { newWallet, signIn } from './wallets';

// Issue 10: two real server processes (server.ts) on ONE PostgreSQL schema, one webhook, one
// receiver: every attempt of every delivery reaches the receiver exactly once, whichever process
// claimed it (FOR UPDATE SKIP LOCKED), including retries that both processes find due at once.
// The events are written by this test's own connection, so the processes also learn of them
// through the database (NOTIFY) or their fallback timers, never in-process.
//
// PostgreSQL only: PGlite is an embedded engine that one process opens, so two processes cannot
// share one PGlite database (the PGlite suite covers claims with test/webhooks.int.test.ts).
const onPostgres = Boolean(process.env.DATABASE_URL);
const EVENTS = 60;
const FAIL_FIRST = 10;
const AUTH_SECRET = 'two-processes-share-this-auth-secret-0123456789';

describe.skipIf(!onPostgres)(
  'two server processes on one PostgreSQL schema (skipped on PGlite: two processes cannot share one embedded PGlite database)',
  () => {
    let app: TestApp;
    const servers: RunningServer[] = [];
    const hits: { webhookId: string; n: number; port: number }[] = [];
    const failed = new Set<number>();
    let receiver: http.Server;
    let receiverUrl = '';

    beforeAll(async () => {
      app = await startTestApp({ SERVICE_NETWORK: 'testnet', AUTH_SECRET });
      receiver = http.createServer((request, response) => {
        let body = '';
        request.on('data', (chunk) => (body += chunk));
        request.on('end', () => {
          const n = JSON.parse(body).data.n as number;
          hits.push({ webhookId: String(request.headers['webhook-id']), n, port: request.socket.remotePort ?? 0 });
          // The first attempt of the first FAIL_FIRST events fails: they are retried.
          if (n < FAIL_FIRST && !failed.has(n)) {
            failed.add(n);
            response.writeHead(503).end();
          } else response.writeHead(200).end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
      const url = new URL(process.env.DATABASE_URL!);
      url.searchParams.set('schema', app.database.kind === 'postgres' ? app.database.schema : '');
      // Instances of one deployment share AUTH_SECRET (webhook secrets are encrypted with it).
      const env = {
        DATABASE_URL: url.toString(),
        SERVICE_NETWORK: 'testnet',
        LOG_LEVEL: 'warn',
        AUTH_SECRET,
        STREAM_MAX_PER_CALLER: '2',
        // The receiver fails the first attempt of 10 events in a row on purpose; with the default circuit
        // breaker (open after 5 failures in a row, then probing one delivery at a time with a doubling
        // pause) their retries would wait out the pauses. The breaker has its own test
        // (test/webhooks-circuit.int.test.ts); this one is about claims across processes.
        WEBHOOK_CIRCUIT_AFTER: '10000',
      };
      servers.push(...(await Promise.all([startServer(env), startServer(env)])));
    }, 120_000);

    afterAll(async () => {
      await Promise.all(servers.map((server) => server.stop()));
      await new Promise((resolve) => receiver?.close(resolve));
      await app?.close();
    });

    it('delivers each event exactly once per attempt, retries included', async () => {
      const account = newWallet();
      const session = await signIn(app, account);
      await app.post('/api/v1/agents', { agent_name: 'Two processes' }, { token: session.token });
      // Registered through one of the processes.
      const created = await fetch(`${servers[0]!.url}/api/v1/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${session.token}` },
        body: JSON.stringify({ url: `${receiverUrl}/hook`, events: ['job.posted'] }),
      });
      expect(created.status).toBe(201);

      for (let n = 0; n < EVENTS; n++) await withTransaction((tx) => emit('job.posted', { n }, tx.sql));

      const waitFor = async (count: number) => {
        const deadline = Date.now() + 40_000;
        while (hits.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      };
      await waitFor(EVENTS);
      if (hits.length < EVENTS) {
        const state = await database().sql.query(`SELECT status, attempts, last_error FROM webhook_deliveries LIMIT 3`);
        const cursor = await database().sql.query(`SELECT * FROM event_cursors`);
        throw new Error(
          `only ${hits.length} deliveries: ${JSON.stringify({ state, cursor })}\n${servers.map((s) => s.stdout().slice(-1500) + s.stderr().slice(-1500)).join('\n---\n')}`,
        );
      }
      // Make the failed ones due now (instead of waiting 30 s): both processes race for them.
      await new Promise((resolve) => setTimeout(resolve, 500));
      await database().sql.query(`UPDATE webhook_deliveries SET next_attempt_at = now() WHERE status = 'pending'`);
      await waitFor(EVENTS + FAIL_FIRST);
      await new Promise((resolve) => setTimeout(resolve, 1500)); // anything extra would show up now

      const rows = await database().sql.query<{ attempts: number; status: string; event_id: string }>(
        `SELECT d.attempts, d.status, d.event_id::text AS event_id FROM webhook_deliveries d`,
      );
      expect(rows).toHaveLength(EVENTS);
      expect(rows.every((row) => row.status === 'delivered')).toBe(true);
      const attempts = rows.reduce((sum, row) => sum + row.attempts, 0);
      // As many requests as attempts were counted, and exactly 1 or 2 (the retried ones) per event.
      expect(attempts).toBe(EVENTS + FAIL_FIRST);
      expect(hits).toHaveLength(EVENTS + FAIL_FIRST);
      const perEvent = new Map<number, number>();
      for (const hit of hits) perEvent.set(hit.n, (perEvent.get(hit.n) ?? 0) + 1);
      for (let n = 0; n < EVENTS; n++) expect(perEvent.get(n), `event ${n}`).toBe(n < FAIL_FIRST ? 2 : 1);
      // A retry carries the same event id as its first attempt.
      for (let n = 0; n < FAIL_FIRST; n++) {
        expect(new Set(hits.filter((hit) => hit.n === n).map((hit) => hit.webhookId)).size).toBe(1);
      }
      for (const server of servers) expect(server.child.exitCode).toBeNull();
    }, 120_000);

    it('counts a caller’s open streams across both processes (spec Limits, Stream)', async () => {
      const session = await signIn(app, newWallet());
      const open = (server: RunningServer) =>
        fetch(`${server.url}/api/v1/stream`, { headers: { authorization: `Bearer ${session.token}` } });
      const one = await open(servers[0]!);
      const two = await open(servers[1]!);
      expect([one.status, two.status]).toEqual([200, 200]);
      for (const server of servers) {
        const refused = await open(server);
        expect(refused.status).toBe(429);
        await refused.text();
      }
      await one.body!.cancel();
      let again: Response | null = null;
      for (let i = 0; i < 50 && again?.status !== 200; i++) {
        if (again) await again.text();
        await new Promise((resolve) => setTimeout(resolve, 100));
        again = await open(servers[1]!);
      }
      expect(again!.status).toBe(200);
      await again!.body!.cancel();
      await two.body!.cancel();
    }, 60_000);
  },
);
