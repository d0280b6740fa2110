// The event stream and webhook section of `npm run bench` (issue 10): runs bench/events.ts in a
// child (its own server child inside) with the file limit raised, and renders its results.
// Size: EVENTS_BENCH_STREAMS (default 10,000 open streams) and EVENTS_BENCH_SUBSCRIBERS (default
// 1,000 of them on all events); a full run takes about a minute.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface EventsResults {
  total: number;
  subscribers: number;
  perConnection: { rss: number; heap: number };
  fanout: { received: number; p50: number; p99: number };
  webhooksPerSecond: number;
  drainPerSecond: number;
  received: number;
}

export async function benchEvents(): Promise<EventsResults> {
  const total = Number(process.env.EVENTS_BENCH_STREAMS ?? 10_000);
  const subscribers = Number(process.env.EVENTS_BENCH_SUBSCRIBERS ?? Math.min(1000, total));
  const child = spawn(
    '/bin/sh',
    [
      '-c',
      'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$0" "$@"',
      process.execPath,
      '--import',
      'tsx',
      path.join(ROOT, 'bench/events.ts'),
      String(total),
      String(subscribers),
    ],
    { cwd: ROOT, env: { ...process.env, EVENTS_BENCH_NO_DOC: '1' }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk;
    process.stderr.write(chunk);
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const line = out.split('\n').find((l) => l.startsWith('RESULT '));
  if (code !== 0 || !line) throw new Error(`bench/events.ts failed (exit ${code})`);
  return JSON.parse(line.slice('RESULT '.length)) as EventsResults;
}

export function renderEventsSection(r: EventsResults): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const ok = (pass: boolean) => (pass ? 'meets' : 'misses');
  return `## Event stream and webhooks

\`bench/events.ts\` (sizes: \`EVENTS_BENCH_STREAMS\`, \`EVENTS_BENCH_SUBSCRIBERS\`): the fast door on PGlite in a child process
with its file limit raised, ${r.total} open streams over ${Math.ceil(r.total / 500)} callers (${r.total - r.subscribers} idle on an event
that never fires, ${r.subscribers} on all events), then 50 events one per transaction 40 ms apart, then 2,000 webhook deliveries to one
local receiver (timed from the first emitting transaction to the last receipt, and again from a backlog of 2,000 committed events
with the worker started after the commits). Method and history: docs/benchmarks-events.md.

| Measure | Result | Target |
| --- | --- | --- |
| Server memory per open stream (RSS) | ${kb(r.perConnection.rss)} | <= 20 KB (${ok(r.perConnection.rss <= 20 * 1024)}) |
| Server heap per open stream | ${kb(r.perConnection.heap)} | |
| Commit-to-receipt, ${r.subscribers} subscribers (${r.fanout.received} receipts) | p50 ${r.fanout.p50} ms, p99 ${r.fanout.p99} ms | p99 < 100 ms (${ok(r.fanout.p99 < 100)}) |
| Webhook deliveries per second, timed from the first emitting transaction | ${r.webhooksPerSecond.toFixed(0)}/s | >= 500/s (${ok(r.webhooksPerSecond >= 500)}) |
| Webhook deliveries per second from a backlog of 2,000 committed events | ${r.drainPerSecond.toFixed(0)}/s | >= 500/s (${ok(r.drainPerSecond >= 500)}) |
`;
}
