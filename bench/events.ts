// npx tsx bench/events.ts [idle=10000] [subscribers=1000]: the event stream and webhooks (issue 10).
// The server runs in a child process (bench/events-server.ts) so its memory is its own. Measures:
// server memory per open idle stream, commit-to-receipt delay with `subscribers` of the streams
// subscribed to all events, and webhook deliveries per second to a local receiver.
// Writes docs/benchmarks-events.md.
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import * as prettier from 'prettier';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TOTAL = Number(process.argv[2] ?? 10_000);
const SUBSCRIBERS = Math.min(TOTAL, Number(process.argv[3] ?? 1000));
const FANOUT_EVENTS = 50;
const WEBHOOK_EVENTS = 2000;
const HISTORY_MARKER = '<!-- history: kept by bench/events.ts -->';

// The server gets the highest file limit the shell may set (10,000 streams are 10,000 sockets).
const child = spawn(
  '/bin/sh',
  [
    '-c',
    'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$0" "$@"',
    process.execPath,
    '--import',
    'tsx',
    '--expose-gc',
    ...(process.env.EVENTS_BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.EVENTS_BENCH_PROF}`] : []),
    path.join(ROOT, 'bench/events-server.ts'),
  ],
  { stdio: ['inherit', 'inherit', 'inherit', 'ipc'] },
);
const pending = new Map<number, (value: any) => void>();
let nextId = 1;
child.on('message', (message: { id: number; value: unknown }) => pending.get(message.id)?.(message.value));
const ask = <T>(command: Record<string, unknown>) =>
  new Promise<T>((resolve) => {
    const id = nextId++;
    pending.set(id, resolve);
    child.send({ ...command, id });
  });
const { port } = await new Promise<{ port: number }>((resolve) => pending.set(0, resolve));
const base = `http://127.0.0.1:${port}`;

async function post(pathname: string, body: unknown, token?: string) {
  const response = await fetch(base + pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return response.json() as Promise<any>;
}
// Streams are spread over several callers (a few hundred each), as a real population would be.
const STREAMS_PER_CALLER = 500;
async function signIn(): Promise<string> {
  const account = privateKeyToAccount(generatePrivateKey());
  const challenge = await post('/api/v1/auth/challenge', { owner_wallet: account.address, agent_pubkey: 'bench' });
  const verify = await post('/api/v1/auth/verify', {
    challenge_id: challenge.challenge_id,
    signature: await account.signMessage({ message: challenge.challenge }),
  });
  return verify.token as string;
}
const tokens: string[] = [];
for (let i = 0; i < Math.ceil(TOTAL / STREAMS_PER_CALLER); i++) tokens.push(await signIn());
const token = tokens[0]!;

const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const delays: number[] = [];
function openStream(query: string, measure: boolean, token: string): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${base}/api/v1/stream?${query}`,
      { agent, headers: { authorization: `Bearer ${token}` } },
      (response) => {
        if (response.statusCode !== 200) return reject(new Error(`stream ${response.statusCode}`));
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (!measure) return;
          const now = Date.now();
          for (const match of chunk.matchAll(/"sent_at":(\d+)/g)) delays.push(now - Number(match[1]));
        });
        resolve(response);
      },
    );
    request.on('error', reject);
  });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

const before = await ask<NodeJS.MemoryUsage>({ kind: 'memory' });
const streams: http.IncomingMessage[] = [];
const idle = TOTAL - SUBSCRIBERS;
for (let opened = 0; opened < TOTAL; opened += 250) {
  const batch = [];
  for (let i = opened; i < Math.min(TOTAL, opened + 250); i++) {
    const caller = tokens[i % tokens.length]!;
    batch.push(i < idle ? openStream('events=smart_money.exit', false, caller) : openStream('', true, caller));
  }
  streams.push(...(await Promise.all(batch)));
}
await new Promise((resolve) => setTimeout(resolve, 2000));
const after = await ask<NodeJS.MemoryUsage>({ kind: 'memory' });
const perConnection = {
  rss: (after.rss - before.rss) / TOTAL,
  heap: (after.heapUsed - before.heapUsed) / TOTAL,
};
console.log(
  `open streams: ${await ask({ kind: 'subscribers' })}; per connection rss ${perConnection.rss.toFixed(0)} B, heap ${perConnection.heap.toFixed(0)} B`,
);

for (let i = 0; i < FANOUT_EVENTS; i++) {
  await ask({ kind: 'emit', name: 'job.posted', count: 1, batch: 1 });
  await new Promise((resolve) => setTimeout(resolve, 40));
}
await new Promise((resolve) => setTimeout(resolve, 2000));
const fanout = { received: delays.length, p50: percentile(delays, 50), p99: percentile(delays, 99) };
console.log(`fan-out: ${fanout.received} receipts, p50 ${fanout.p50} ms, p99 ${fanout.p99} ms`);
for (const stream of streams) stream.destroy();

// Webhooks: one receiver, one webhook, WEBHOOK_EVENTS events.
let received = 0;
let lastReceipt = 0;
const receiver = http.createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    received++;
    lastReceipt = Date.now();
    response.writeHead(200).end();
  });
});
receiver.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverPort = (receiver.address() as { port: number }).port;
await post('/api/v1/webhooks', { url: `http://127.0.0.1:${receiverPort}/hook`, events: ['job.completed'] }, token);
await ask({ kind: 'webhooks' });
const started = Date.now();
await ask({ kind: 'emit', name: 'job.completed', count: WEBHOOK_EVENTS, batch: 100 });
while (received < WEBHOOK_EVENTS && Date.now() - started < 120_000) await new Promise((resolve) => setTimeout(resolve, 50));
const perSecond = received / ((lastReceipt - started) / 1000);
console.log(`webhooks: ${received} deliveries, ${perSecond.toFixed(0)}/s`);
// The delivery rate alone: the same number of events already in the log, then the worker starts.
await ask({ kind: 'stop-webhooks' });
await ask({ kind: 'emit', name: 'job.completed', count: WEBHOOK_EVENTS, batch: 100 });
const backlogStart = Date.now();
const backlogFrom = received;
await ask({ kind: 'webhooks' });
while (received < backlogFrom + WEBHOOK_EVENTS && Date.now() - backlogStart < 120_000)
  await new Promise((resolve) => setTimeout(resolve, 20));
const drainPerSecond = (received - backlogFrom) / ((lastReceipt - backlogStart) / 1000);
console.log(`webhooks from a backlog: ${received - backlogFrom} deliveries, ${drainPerSecond.toFixed(0)}/s`);
receiver.close();
child.send({ kind: 'exit', id: -1 });
await new Promise((resolve) => child.once('exit', resolve));

const report = `# Event stream and webhook benchmark

\`npx tsx bench/events.ts ${TOTAL} ${SUBSCRIBERS}\` on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version},
PGlite, the server in its own process (fast door). Run on ${new Date().toISOString().slice(0, 10)}; the machine is shared with other work,
so the figures are indicative.

| Measure | Result | Target |
|---|---|---|
| Open streams | ${TOTAL} (${idle} idle on an event that never fires, ${SUBSCRIBERS} on all events) | 10,000 |
| Server memory per open stream (RSS) | ${(perConnection.rss / 1024).toFixed(1)} KB | <= 20 KB |
| Server heap per open stream | ${(perConnection.heap / 1024).toFixed(1)} KB | |
| Commit-to-receipt delay, ${SUBSCRIBERS} subscribers x ${FANOUT_EVENTS} events (${fanout.received} receipts) | p50 ${fanout.p50} ms, p99 ${fanout.p99} ms | p99 < 100 ms |
| Webhook deliveries per second (${WEBHOOK_EVENTS} events, one local receiver), timed from the first emit | ${perSecond.toFixed(0)}/s | >= 500/s |
| Webhook deliveries per second from a backlog of ${WEBHOOK_EVENTS} committed events | ${drainPerSecond.toFixed(0)}/s | >= 500/s |

The delay is measured from just before the emitting transaction commits (the payload's \`sent_at\`) to
the moment the client read the event, so it includes the commit, the change notice, the hub's read and
the write to every subscriber.
`;
console.log(
  'RESULT ' +
    JSON.stringify({
      total: TOTAL,
      subscribers: SUBSCRIBERS,
      perConnection,
      fanout,
      webhooksPerSecond: perSecond,
      drainPerSecond,
      received,
    }),
);
if (!process.env.EVENTS_BENCH_NO_DOC) {
  // The hand-written history below the marker survives a new run.
  const file = path.join(ROOT, 'docs', 'benchmarks-events.md');
  const previous = await readFile(file, 'utf8').catch(() => '');
  const marker = previous.indexOf(HISTORY_MARKER);
  const markdown = report + (marker >= 0 ? '\n' + previous.slice(marker) : '');
  // Formatted as `npm run format:check` expects, so a fresh report passes it.
  await writeFile(file, await prettier.format(markdown, { ...(await prettier.resolveConfig(file)), filepath: file }));
  console.log('wrote docs/benchmarks-events.md');
}
process.exit(0);
