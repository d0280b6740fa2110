// The server side of test/pipelines-load.int.test.ts, in a process of its own so that its memory
// and latency are the server's alone (as server.ts runs it, without the UI): the REST API on a real
// HTTP server, on a copy of the test template (PGlite) or on the schema the test made (PostgreSQL).
// It creates the pipeline under test itself, then reports over IPC:
//   -> {runUrl, healthUrl, token, idleRss}   once ready
//   <- 'report'                     -> {maxRss}: the largest resident size sampled every 100 ms
import { readFileSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { createApi } from '../../server/api/app';
import { disableChain } from '../../server/chain/client';
import { createPgliteInstance, openDatabase } from '../../server/core/db/open';
import { startRuntime } from '../../server/core/runtime';
import type { TestApp } from '../harness';
import { fund } from '../money';
import { newWallet, signIn } from '../wallets';

const [template, targetUrl, references] = process.argv.slice(2) as [string, string, string];
const dataDir = mkdtempSync(path.join(tmpdir(), 'vouchsafe-load-'));
// PGlite on disk in DATA_DIR, as server.ts opens it (the test template copied in first).
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
    LOG_LEVEL: 'silent',
    INVOKE_TIMEOUT_MS: '10000',
    // The loops run far more than the write policy's 600 runs a minute: what is measured is the server.
    RATE_LIMIT_WRITE: '1000000/1m',
  },
  database,
});
disableChain(runtime);
const api = createApi();
const server = createServer(getRequestListener(api.fetch));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

let maxRss = 0;
setInterval(() => (maxRss = Math.max(maxRss, process.memoryUsage().rss)), 100).unref();

// signIn() only needs post(); over this server's real HTTP.
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

async function agentAt(url: string): Promise<string> {
  const session = await signIn(app, newWallet());
  const created = await post('/api/v1/agents', { agent_name: 'Load target' }, { token: session.token });
  const body = { is_callable: true, invoke_url: url, price_claw_per_call: 0 };
  const patched = await post(`/api/v1/agents/${created.body.agent_id}`, body, { token: session.token, method: 'PATCH' });
  if (patched.status !== 200) throw new Error(`agent update failed: ${patched.text}`);
  return created.body.agent_id;
}

const big = await agentAt(`${targetUrl}/big`);
const next = await agentAt(`${targetUrl}/next`);
const owner = newWallet();
const session = await signIn(app, owner);
await post('/api/v1/agents', { agent_name: 'Load owner' }, { token: session.token });
await fund(owner.address, 500);
const created = await post(
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
  { token: session.token },
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
