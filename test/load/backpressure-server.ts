// The server side of test/backpressure-load.int.test.ts (issue 23, item 4), in a process of its own
// so that its resident memory (read by the test from /proc/<pid>/status) and its health latency are
// the server's alone: the webhook worker and the REST API (load/api-server.ts), on a
// copy of the test template (PGlite) or on the schema the test made (PostgreSQL).
// argv: <template> <refused receiver URL> <silent receiver URL> <agent URL> <deliveries per receiver>
// It makes a stream caller, three pipeline owners (a one-step manual pipeline each) and two webhooks
// (one to each dead receiver), then over IPC:
//   -> {ready: true, base, streamToken, runs: [{url, token}]}
//   <- 'seed'   -> {seeded: n}: n real delivery rows (n/2 per webhook) inserted set-based, due now
//   <- 'report' -> {webhooks: [...per webhook: attempts made, rows by status, failed attempts, paused?, in flight]}
import { startWebhookWorker } from '../../server/webhooks/deliver-webhooks';
import { fund } from '../money';
import { newWallet, signIn } from '../wallets';
import { startApiServer } from './api-server';
import { call, type Answer } from './http-client';

const [template, refusedUrl, silentUrl, agentUrl, perReceiver] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
const SEED_BATCH = 250;
const { runtime, base, app } = await startApiServer(template, {
  // Webhook URLs may be plain http (the receivers here are local).
  SERVICE_NETWORK: 'testnet',
  // One caller opens every stream (the per-caller limit is not what is measured); the instance's
  // bound is STREAM_MAX_OPEN, set by the test.
  STREAM_MAX_PER_CALLER: '10000',
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => /^(STREAM_|WEBHOOK_|PIPELINE_)/.test(key))),
});
const { database } = runtime;
const must = (what: string, answer: Answer, status: number): Answer => {
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${answer.text}`);
  return answer;
};

// The agent every pipeline step calls (free; it answers after a pause, so runs overlap).
const agentOwner = await signIn(app, newWallet());
const agent = must('agent', await call(base, 'POST', '/api/v1/agents', { agent_name: 'Slow step' }, agentOwner.token), 201);
must(
  'agent update',
  await call(
    base,
    'PATCH',
    `/api/v1/agents/${agent.body.agent_id}`,
    { is_callable: true, invoke_url: agentUrl, price_claw_per_call: 0 },
    agentOwner.token,
  ),
  200,
);

const runs: { url: string; token: string }[] = [];
for (let i = 0; i < 3; i++) {
  const owner = newWallet();
  const session = await signIn(app, owner);
  must('owner agent', await call(base, 'POST', '/api/v1/agents', { agent_name: `Pipeline owner ${i}` }, session.token), 201);
  await fund(owner.address, 1000);
  const created = must(
    'pipeline',
    await call(
      base,
      'POST',
      '/api/v1/pipelines',
      {
        name: `Burst ${i}`,
        trigger_type: 'manual',
        steps: [{ id: 's', name: 'Slow', agent_id: agent.body.agent_id, output_key: 's' }],
      },
      session.token,
    ),
    201,
  );
  runs.push({ url: `${base}/api/v1/pipelines/${created.body.pipeline_id}/run`, token: session.token });
}

const hookOwner = await signIn(app, newWallet());
const hooks: string[] = [];
for (const url of [refusedUrl, silentUrl]) {
  const hook = must(
    'webhook',
    await call(base, 'POST', '/api/v1/webhooks', { url, events: ['job.posted'] }, hookOwner.token),
    201,
  );
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
      // the rows the worker claims, exactly as the fan-out would have made them. In batches of
      // SEED_BATCH events, as a stream of events fills the queue (one 10,000-row statement would hold
      // PGlite, and so this server's thread, for seconds: that is the seed, not the backlog).
      let made = 0;
      for (let from = 1; from <= n; from += SEED_BATCH) {
        const range = [from, Math.min(n, from + SEED_BATCH - 1)];
        await database.sql.query(
          `INSERT INTO events (name, data, audience)
           SELECT 'job.posted', jsonb_build_object('job_id', 'seed-' || g), ARRAY['0x000000000000000000000000000000000000dead']
           FROM generate_series($1::int, $2::int) g`,
          range,
        );
        // A separate statement: an event's id is assigned in commit order, after its insert returned.
        const [batch] = await database.sql.query<{ n: number }>(
          `WITH ins AS (
             INSERT INTO webhook_deliveries (id, webhook_id, event_id, next_attempt_at)
             SELECT gen_random_uuid(), w.id, e.id, now()
             FROM webhooks w CROSS JOIN (
               SELECT id FROM events WHERE data->>'job_id' IN (SELECT 'seed-' || g FROM generate_series($1::int, $2::int) g)
             ) e
             WHERE w.id = ANY ($3::uuid[])
             RETURNING 1
           ) SELECT count(*)::int AS n FROM ins`,
          [...range, hooks],
        );
        made += batch!.n;
        runtime.changes.publish({ kind: 'event', id: null });
      }
      process.send!({ seeded: made });
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
