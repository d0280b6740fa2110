// The server side of test/pipelines-load.int.test.ts, in a process of its own so that its memory
// and latency are the server's alone (as server.ts runs it, without the UI): load/api-server.ts, on a
// copy of the test template (PGlite) or on the schema the test made (PostgreSQL).
// It creates the pipeline under test itself, then reports over IPC:
//   -> {runUrl, healthUrl, token, idleRss}   once ready
//   <- 'report'                     -> {maxRss}: the largest resident size sampled every 100 ms
import { fund } from '../money';
import { newWallet, signIn } from '../wallets';
import { startApiServer } from './api-server';
import { call } from './http-client';

const [template, targetUrl, references] = process.argv.slice(2) as [string, string, string];
const { base, app } = await startApiServer(template, { INVOKE_TIMEOUT_MS: '10000' });

let maxRss = 0;
setInterval(() => (maxRss = Math.max(maxRss, process.memoryUsage().rss)), 100).unref();

async function agentAt(url: string): Promise<string> {
  const session = await signIn(app, newWallet());
  const created = await call(base, 'POST', '/api/v1/agents', { agent_name: 'Load target' }, session.token);
  const body = { is_callable: true, invoke_url: url, price_claw_per_call: 0 };
  const patched = await call(base, 'PATCH', `/api/v1/agents/${created.body.agent_id}`, body, session.token);
  if (patched.status !== 200) throw new Error(`agent update failed: ${patched.text}`);
  return created.body.agent_id;
}

const big = await agentAt(`${targetUrl}/big`);
const next = await agentAt(`${targetUrl}/next`);
const owner = newWallet();
const session = await signIn(app, owner);
await call(base, 'POST', '/api/v1/agents', { agent_name: 'Load owner' }, session.token);
await fund(owner.address, 500);
const created = await call(
  base,
  'POST',
  '/api/v1/pipelines',
  {
    name: 'Worst mapping',
    trigger_type: 'manual',
    steps: [
      { id: 'b', name: 'Big output', agent_id: big, output_key: 'b' },
      {
        id: 'n',
        name: 'Amplified',
        agent_id: next,
        output_key: 'n',
        input_mapping: { c: Array.from({ length: Number(references) }, () => '/steps/b') },
      },
    ],
  },
  session.token,
);
if (created.status !== 201) throw new Error(`pipeline creation failed: ${created.text}`);

process.on('message', (message) => {
  if (message === 'report') process.send!({ maxRss });
});
process.send!({
  runUrl: `${base}/api/v1/pipelines/${created.body.pipeline_id}/run`,
  healthUrl: `${base}/api/v1/health`,
  token: session.token,
  idleRss: process.memoryUsage().rss,
});
