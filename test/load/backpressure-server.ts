// The server side of test/backpressure-load.int.test.ts (issue 23, item 4), in a process of its own
// so that its resident memory (read by the test from /proc/<pid>/status) and its health latency are
// the server's alone: the runtime, the webhook worker and the REST API on a real HTTP server, on a
// copy of the test template (PGlite) or on the schema the test made (PostgreSQL).
// argv: <template> <refused receiver URL> <silent receiver URL> <agent URL> <deliveries per receiver>
// It makes a stream caller, three pipeline owners (a one-step manual pipeline each) and two webhooks
// (one to each dead receiver), then over IPC:
//   -> {ready: true, base, streamToken, runs: [{url, token}]}
//   <- 'seed'   -> {seeded: n}: n real delivery rows (n/2 per webhook) inserted set-based, due now
//   <- 'report' -> {webhooks: [...per webhook: attempts made, rows by status, failed attempts, paused?, in flight]}
import { readFileSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { createApi } from '../../server/api/app';
import { disableChain } from '../../server/chain/client';
import { createPgliteInstance, openDatabase } from '../../server/core/db/open';
import { startRuntime } from '../../server/core/runtime';
import { startWebhookWorker } from '../../server/webhooks/deliver-webhooks';
import type { TestApp } from '../harness';
import { fund } from '../money';
import { newWallet, signIn } from '../wallets';

const [template, refusedUrl, silentUrl, agentUrl, perReceiver] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
const dataDir = mkdtempSync(path.join(tmpdir(), 'vouchsafe-backpressure-'));
const database = process.env.DATABASE_URL
  ? await openDatabase({ DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: '' })
  : await openDatabase(
      { DATA_DIR: '' },
      {
        pglite: await createPgliteInstance({
          dataDir: path.join(dataDir, 'pglite'),
          loadDataDir: new Blob([readFileSync(template)]),
        }),
      },
    );
const runtime = await startRuntime({
  env: {
    DATA_DIR: dataDir,
    ALLOW_PRIVATE_URLS: 'true',
    // Webhook URLs may be plain http (the receivers here are local).
    SERVICE_NETWORK: 'testnet',
    LOG_LEVEL: 'silent',
    // One caller opens every stream (the per-caller limit is not what is measured); the instance's
    // bound is STREAM_MAX_OPEN, set by the test.
    STREAM_MAX_PER_CALLER: '10000',
    RATE_LIMIT_WRITE: '1000000/1m',
    ...Object.fromEntries(Object.entries(process.env).filter(([key]) => /^(STREAM_|WEBHOOK_|PIPELINE_)/.test(key))),
  },
  database,
});
disableChain(runtime);
const server = createServer(getRequestListener(createApi().fetch));
server.maxConnections = 100_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

const post = async (urlPath: string, body: unknown, options: { token?: string; method?: string } = {}) => {
  const response = await fetch(`${base}${urlPath}`, {
    method: options.method ?? 'POST',
    headers: { 'content-type': 'application/json', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), text, headers: response.headers };
};
const app = { post } as unknown as TestApp;
const must = <T extends { status: number; text: string }>(what: string, result: T, status: number): T => {
  if (result.status !== status) throw new Error(`${what}: ${result.status} ${result.text}`);
  return result;
};

// The agent every pipeline step calls (free; it answers after a pause, so runs overlap).
const agentOwner = await signIn(app, newWallet());
const agent = must('agent', await post('/api/v1/agents', { agent_name: 'Slow step' }, { token: agentOwner.token }), 201);
must(
  'agent update',
  await post(
    `/api/v1/agents/${agent.body.agent_id}`,
    { is_callable: true, invoke_url: agentUrl, price_claw_per_call: 0 },
    { token: agentOwner.token, method: 'PATCH' },
  ),
  200,
);

const runs: { url: string; token: string }[] = [];
for (let i = 0; i < 3; i++) {
  const owner = newWallet();
  const session = await signIn(app, owner);
  must('owner agent', await post('/api/v1/agents', { agent_name: `Pipeline owner ${i}` }, { token: session.token }), 201);
  await fund(owner.address, 1000);
  const created = must(
    'pipeline',
    await post(
      '/api/v1/pipelines',
      {
        name: `Burst ${i}`,
        trigger_type: 'manual',
        steps: [{ id: 's', name: 'Slow', agent_id: agent.body.agent_id, output_key: 's' }],
      },
      { token: session.token },
    ),
    201,
  );
  runs.push({ url: `${base}/api/v1/pipelines/${created.body.pipeline_id}/run`, token: session.token });
}

const hookOwner = await signIn(app, newWallet());
const hooks: string[] = [];
for (const url of [refusedUrl, silentUrl]) {
  const hook = must('webhook', await post('/api/v1/webhooks', { url, events: ['job.posted'] }, { token: hookOwner.token }), 201);
  hooks.push(hook.body.id);
}
const streamCaller = await signIn(app, newWallet());

startWebhookWorker(runtime);

process.on('message', (message) => {
  void (async () => {
    if (message === 'seed') {
      const n = Number(perReceiver);
      // n log events nobody else sees (their audience is a wallet no one holds, so no stream sends
      // them and the fan-out matches no webhook), then one delivery of each to each dead webhook:
      // the rows the worker claims, exactly as the fan-out would have made them.
      await database.sql.query(
        `INSERT INTO events (name, data, audience)
         SELECT 'job.posted', jsonb_build_object('job_id', 'seed-' || g), ARRAY['0x000000000000000000000000000000000000dead']
         FROM generate_series(1, $1::int) g`,
        [n],
      );
      const [made] = await database.sql.query<{ n: number }>(
        `WITH ins AS (
           INSERT INTO webhook_deliveries (id, webhook_id, event_id, next_attempt_at)
           SELECT gen_random_uuid(), w.id, e.id, now()
           FROM webhooks w CROSS JOIN (SELECT id FROM events WHERE data->>'job_id' LIKE 'seed-%' ORDER BY id) e
           WHERE w.id = ANY ($1::uuid[])
           RETURNING 1
         ) SELECT count(*)::int AS n FROM ins`,
        [hooks],
      );
      runtime.changes.publish({ kind: 'event', id: null });
      process.send!({ seeded: made!.n });
    } else if (message === 'report') {
      const webhooks = await database.sql.query(
        `SELECT w.url, w.is_active, w.failed_attempts, w.paused_until IS NOT NULL AND w.paused_until > now() AS paused,
           coalesce(sum(d.attempts), 0)::int AS attempts,
           count(*) FILTER (WHERE d.status = 'pending')::int AS pending,
           count(*) FILTER (WHERE d.status = 'delivering')::int AS delivering,
           count(*) FILTER (WHERE d.status = 'failed')::int AS failed,
           count(*) FILTER (WHERE d.status = 'delivered')::int AS delivered,
           count(*) FILTER (WHERE d.attempts > 0)::int AS tried
         FROM webhooks w LEFT JOIN webhook_deliveries d ON d.webhook_id = w.id
         WHERE w.id = ANY ($1::uuid[]) GROUP BY w.id ORDER BY w.url`,
        [hooks],
      );
      process.send!({ webhooks });
    }
  })().catch((error: Error) => process.send!({ error: error.message }));
});
process.send!({ ready: true, base, streamToken: streamCaller.token, runs, refusedUrl, silentUrl });
