import { readFileSync } from 'node:fs';
import http, { createServer, type IncomingMessage, type Server } from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forkServer, type ServerProcess } from './load/fork-server';

// Issue 23, item 4 (backpressure): 10,000 queued webhook deliveries to dead receivers (5,000 to a
// port that refuses connections, 5,000 to one that accepts and never answers), 5,000 open event
// streams and a burst of pipeline triggers, all at once against a server in a process of its own
// (load/backpressure-server.ts), while GET /api/v1/health is probed. What must hold:
//  - health answers 200 throughout, p99 under HEALTH_P99_MS (1 s: a generous bound against a shared
//    machine; the measured figures and the 200 ms target are in docs/reliability.md);
//  - the server's resident memory (VmRSS of its process) grows less than RSS_GROWTH_LIMIT (300 MB)
//    from idle to the end;
//  - refusals are 429 or 503 with Retry-After and the spec's error shape, never 500: the stream past
//    STREAM_MAX_OPEN, pipeline runs past PIPELINE_MAX_RUNS_PER_CALLER / PIPELINE_MAX_CONCURRENT_RUNS;
//  - the worker did process the delivery rows, never had more than WEBHOOK_MAX_PER_RECEIVER attempts
//    to one receiver in flight, and the refused receiver's circuit opened (few attempts, not 10,000).
// BACKPRESSURE_STREAMS (default 5,000, capped by this process's file-descriptor limit) and
// BACKPRESSURE_SECONDS (default 30, the time everything is held open) change the load.

const STREAMS = Number(process.env.BACKPRESSURE_STREAMS ?? 5000);
const DELIVERIES_PER_RECEIVER = 5000;
const HOLD_SECONDS = Number(process.env.BACKPRESSURE_SECONDS ?? 30);
const EXTRA_STREAMS = 20;
const RUNS_PER_OWNER = 40;
const MAX_RUNS_PER_CALLER = 4;
const MAX_CONCURRENT_RUNS = 6;
const HEALTH_P99_MS = 1000;
const RSS_GROWTH_LIMIT = 300 * 1024 * 1024;

let server: ServerProcess<{ base: string; streamToken: string; runs: { url: string; token: string }[] }>;
let agent: Server;
let silent: net.Server;
const silentSockets = new Set<net.Socket>();
let silentPeak = 0;

function fdLimit(): number {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'));
  return Number(line?.split(/\s+/)[3] ?? 1024);
}

function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
}

beforeAll(async () => {
  agent = createServer((request, response) => {
    request.resume();
    request.on('end', () =>
      setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'), 2000),
    );
  });
  await new Promise<void>((resolve) => agent.listen(0, '127.0.0.1', resolve));
  // Accepts connections and never answers (the sockets are closed at the end).
  silent = net.createServer((socket) => {
    silentSockets.add(socket);
    silentPeak = Math.max(silentPeak, silentSockets.size);
    socket.on('close', () => silentSockets.delete(socket));
    socket.on('error', () => {});
    socket.resume();
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  // A port nothing listens on: bind one, note it, close it.
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const refusedPort = (probe.address() as net.AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));

  server = await forkServer(
    'backpressure-server.ts',
    [
      `http://127.0.0.1:${refusedPort}/hook`,
      `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}/hook`,
      `http://127.0.0.1:${(agent.address() as net.AddressInfo).port}/`,
      String(DELIVERIES_PER_RECEIVER),
    ],
    {
      STREAM_MAX_OPEN: String(STREAMS),
      PIPELINE_MAX_RUNS_PER_CALLER: String(MAX_RUNS_PER_CALLER),
      PIPELINE_MAX_CONCURRENT_RUNS: String(MAX_CONCURRENT_RUNS),
    },
  );
}, 180_000);

const openSockets: IncomingMessage[] = [];
afterAll(async () => {
  for (const response of openSockets) response.destroy();
  await server?.close();
  for (const socket of silentSockets) socket.destroy();
  agent?.closeAllConnections();
  await Promise.all([new Promise((r) => agent?.close(r)), new Promise((r) => silent?.close(r))]);
}, 60_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface Refusal {
  status: number;
  retryAfter: string | null;
  code: unknown;
}

/** Opens one stream with a raw HTTP client; resolves once its status is known (an open one stays open). */
function openStream(base: string, token: string): Promise<{ status: number; refusal?: Refusal }> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${base}/api/v1/stream`,
      { agent: false, headers: { authorization: `Bearer ${token}` } },
      (response) => {
        if (response.statusCode === 200) {
          openSockets.push(response);
          response.on('error', () => {});
          response.resume();
          return resolve({ status: 200 });
        }
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk));
        response.on('end', () => {
          let code: unknown = null;
          try {
            const body = JSON.parse(text) as { code?: unknown; error?: unknown; details?: unknown };
            code = typeof body.error === 'string' && typeof body.details === 'object' ? body.code : `bad shape: ${text}`;
          } catch {
            code = `not JSON: ${text.slice(0, 200)}`;
          }
          resolve({
            status: response.statusCode ?? 0,
            refusal: { status: response.statusCode ?? 0, retryAfter: (response.headers['retry-after'] as string) ?? null, code },
          });
        });
      },
    );
    request.on('error', reject);
  });
}

describe('backpressure (issue 23, item 4)', () => {
  it('dead receivers with 10,000 queued deliveries, thousands of open streams and a pipeline trigger burst keep health fast, memory bounded and refusals 429/503', async () => {
    const pid = server.child.pid!;
    // Each stream is a socket here and one in the server; leave room for everything else.
    const streams = Math.min(STREAMS, Math.floor((fdLimit() - 500) / 1));
    if (streams < STREAMS) console.log(`backpressure: ulimit -n allows ${streams} streams, not ${STREAMS}`);
    const idleRss = rssOf(pid);
    let maxRss = idleRss;
    const rssTimer = setInterval(() => (maxRss = Math.max(maxRss, rssOf(pid))), 250);

    const health: number[] = [];
    const unexpected: string[] = [];
    let probing = true;
    const probe = (async () => {
      while (probing) {
        const started = performance.now();
        try {
          const response = await fetch(`${server.ready.base}/api/v1/health`);
          await response.arrayBuffer();
          health.push(performance.now() - started);
          if (response.status !== 200) unexpected.push(`health ${response.status}`);
        } catch (error) {
          unexpected.push(`health: ${(error as Error).message}`);
        }
        await sleep(50);
      }
    })();
    const phases: Record<string, { ms: number; p50: number; p99: number; n: number }> = {};
    const phase = async (name: string, work: () => Promise<void>) => {
      const from = health.length;
      const started = performance.now();
      await work();
      const slice = health.slice(from);
      phases[name] = {
        ms: Math.round(performance.now() - started),
        p50: slice.length ? percentile(slice, 50) : 0,
        p99: slice.length ? percentile(slice, 99) : 0,
        n: slice.length,
      };
    };

    await phase('idle', async () => void (await sleep(3000)));

    // 1. 10,000 deliveries due at once to two dead receivers.
    let seeded = 0;
    await phase('seed deliveries', async () => {
      seeded = (await server.ask<{ seeded: number }>('seed')).seeded;
      await sleep(3000);
    });
    expect(seeded).toBe(2 * DELIVERIES_PER_RECEIVER);

    // 2. The streams, 100 opening at a time, then some past the instance's bound.
    const refusals: Refusal[] = [];
    let opened = 0;
    await phase('open streams', async () => {
      let next = 0;
      const worker = async () => {
        while (next < streams) {
          next++;
          const result = await openStream(server.ready.base, server.ready.streamToken);
          if (result.status === 200) opened++;
          else unexpected.push(`stream ${result.status} ${JSON.stringify(result.refusal)}`);
        }
      };
      await Promise.all(Array.from({ length: 100 }, worker));
      for (let i = 0; i < EXTRA_STREAMS; i++) {
        const result = await openStream(server.ready.base, server.ready.streamToken);
        if (result.refusal) refusals.push(result.refusal);
        else unexpected.push(`stream past the bound answered ${result.status}`);
      }
    });
    const rssWithStreams = rssOf(pid);

    // 3. A burst of pipeline triggers: every owner fires RUNS_PER_OWNER at once.
    const runStatuses: Record<number, number> = {};
    await phase('pipeline burst', async () => {
      await Promise.all(
        server.ready.runs.flatMap((run) =>
          Array.from({ length: RUNS_PER_OWNER }, async () => {
            const response = await fetch(run.url, {
              method: 'POST',
              headers: { authorization: `Bearer ${run.token}`, 'content-type': 'application/json' },
              body: '{"payload":{}}',
            });
            const text = await response.text();
            runStatuses[response.status] = (runStatuses[response.status] ?? 0) + 1;
            if (response.status === 200) return;
            const body = JSON.parse(text) as { code?: unknown; error?: unknown; details?: unknown };
            refusals.push({
              status: response.status,
              retryAfter: response.headers.get('retry-after'),
              code: typeof body.error === 'string' && typeof body.details === 'object' ? body.code : `bad shape: ${text}`,
            });
          }),
        ),
      );
    });

    // 4. Everything held open: the streams, the dead receivers' backlog.
    await phase('hold', async () => void (await sleep(HOLD_SECONDS * 1000)));
    probing = false;
    await probe;
    clearInterval(rssTimer);
    const endRss = rssOf(pid);
    maxRss = Math.max(maxRss, endRss);
    const report = await server.ask<{ webhooks: Record<string, unknown>[] }>('report');

    const all = { p50: percentile(health, 50), p99: percentile(health, 99), n: health.length };
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
    const refusalCounts: Record<string, number> = {};
    for (const r of refusals)
      refusalCounts[`${r.status} ${String(r.code)}`] = (refusalCounts[`${r.status} ${String(r.code)}`] ?? 0) + 1;
    console.log(
      [
        `backpressure (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}):`,
        `  health p50 ${all.p50.toFixed(1)} ms, p99 ${all.p99.toFixed(1)} ms over ${all.n} probes`,
        ...Object.entries(phases).map(
          ([name, p]) => `    ${name}: ${p.ms} ms, health p50 ${p.p50.toFixed(1)} ms, p99 ${p.p99.toFixed(1)} ms (${p.n} probes)`,
        ),
        `  server RSS idle ${mb(idleRss)}, with ${opened} streams ${mb(rssWithStreams)}, end ${mb(endRss)}, max ${mb(maxRss)}`,
        `  pipeline runs: ${JSON.stringify(runStatuses)}; refusals: ${JSON.stringify(refusalCounts)}`,
        `  silent receiver: at most ${silentPeak} connections at once`,
        `  webhooks: ${JSON.stringify(report.webhooks)}`,
      ].join('\n'),
    );

    expect(unexpected.slice(0, 5)).toEqual([]);
    expect(opened).toBe(streams);
    // Past the bound: 503 with Retry-After, in the spec's error shape.
    expect(refusals.filter((r) => r.status !== 200).length).toBe(refusals.length);
    for (const refusal of refusals) {
      expect([429, 503]).toContain(refusal.status);
      expect(refusal.retryAfter).toMatch(/^\d+$/);
      expect(['rate_limited', 'service_unavailable']).toContain(refusal.code);
    }
    expect(refusals.filter((r) => r.code === 'service_unavailable').length).toBeGreaterThanOrEqual(EXTRA_STREAMS);
    // The burst ran some pipelines and refused the rest; nothing else (no 500).
    expect(Object.keys(runStatuses).sort()).toEqual(['200', '429', '503'].filter((s) => runStatuses[Number(s)]));
    expect(runStatuses[200]).toBeGreaterThanOrEqual(MAX_RUNS_PER_CALLER);
    expect((runStatuses[429] ?? 0) + (runStatuses[503] ?? 0)).toBeGreaterThan(0);
    expect(runStatuses[500]).toBeUndefined();

    const [refusedHook, silentHook] = [...report.webhooks].sort((a, b) => String(a.url).localeCompare(String(b.url))) as {
      attempts: number;
      tried: number;
      paused: boolean;
      failed_attempts: number;
    }[];
    // Real rows, really processed: both receivers were tried; the refused one's circuit opened, so
    // its backlog waits instead of being hammered (without it, all 5,000 would have been attempted).
    expect(refusedHook!.tried).toBeGreaterThan(0);
    expect(silentHook!.tried).toBeGreaterThan(0);
    expect(refusedHook!.attempts).toBeLessThan(200);
    expect(refusedHook!.failed_attempts).toBeGreaterThanOrEqual(5);
    // The silent receiver never held more than WEBHOOK_MAX_PER_RECEIVER (4) attempts at once.
    expect(silentPeak).toBeLessThanOrEqual(4);

    expect(all.p99).toBeLessThan(HEALTH_P99_MS);
    expect(maxRss - idleRss).toBeLessThan(RSS_GROWTH_LIMIT);
  }, 600_000);
});
