import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forkServer, type ServerProcess } from './load/fork-server';

// Issue 19: a step whose input_mapping names a 1 MiB output hundreds of times once built strings of
// hundreds of MB before the 1 MiB input check (health took 3-11 s, RSS 1.9-2.7 GB). Three loops run
// the worst mapping that fits in input_mapping's 8 KiB against the server over real HTTP for 30 s
// while health is probed over HTTP. The server runs in a child process (load/pipeline-server.ts: the
// REST API as server.ts serves it, on its own copy of the database), so that its memory and latency
// are its own; the loops, the probe and the agent answering 1 MiB run here.
//
// On PostgreSQL the numbers hold as stated: health under 200 ms at p99, the server under
// 600 MB resident. On PGlite the database engine runs inside the server process: it alone keeps the
// idle process near 600 MB (PGlite's and Prisma's wasm) and its queries run on the server's thread,
// so there the test bounds what the fix controls: the growth of resident memory under the load
// (500 MB: PGlite's heap grows with the runs it stores, and since free calls write nothing before their
// forward the loops make about 2,400 runs in 30 s, after which the growth measured 107-316 MB with the
// garbage collector's timing; the amplification added 1.3-2 GB) and health at p99 under 1.5 s (it took
// 3-11 s). The server runs with `npm start`'s node arguments and malloc setting (load/fork-server.ts).
// PIPELINE_LOAD_SECONDS (default 30, the duration) shortens it for a quick local run.

const SECONDS = Number(process.env.PIPELINE_LOAD_SECONDS ?? 30);
const OUTPUT_BYTES = 1_040_000; // within the router's 1 MiB response cap
const REFERENCES = 740; // as many "/steps/b" as input_mapping's 8 KiB holds
const onPostgres = Boolean(process.env.DATABASE_URL);
const HEALTH_P99_MS = onPostgres ? 200 : 1500;
const RSS_LIMIT = 600 * 1024 * 1024;
const RSS_GROWTH_LIMIT = 500 * 1024 * 1024;

let target: Server;
let server: ServerProcess<{ runUrl: string; healthUrl: string; token: string; idleRss: number }>;
const calls = { big: 0, other: 0 };

beforeAll(async () => {
  const body = Buffer.from(JSON.stringify({ blob: 'x'.repeat(OUTPUT_BYTES - 11) }));
  target = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.url === '/big') calls.big++;
      else calls.other++;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(request.url === '/big' ? body : '{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const targetUrl = `http://127.0.0.1:${(target.address() as { port: number }).port}`;

  server = await forkServer('pipeline-server.ts', [targetUrl, String(REFERENCES)]);
}, 120_000);
afterAll(async () => {
  await server?.close();
  target?.closeAllConnections();
  await new Promise((resolve) => target?.close(resolve));
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

describe('pipeline amplification under load', () => {
  it(
    'three loops of a mapping naming a 1 MiB output hundreds of times keep health fast and the server’s memory flat',
    async () => {
      const end = Date.now() + SECONDS * 1000;
      let runs = 0;
      const unexpected: string[] = [];
      const loop = async () => {
        while (Date.now() < end) {
          const response = await fetch(server.ready.runUrl, {
            method: 'POST',
            headers: { authorization: `Bearer ${server.ready.token}`, 'content-type': 'application/json' },
            body: '{}',
          });
          const text = await response.text();
          runs++;
          if (response.status !== 200 || !text.includes('larger than 1 MiB')) unexpected.push(`${response.status} ${text}`);
        }
      };
      const health: number[] = [];
      const probe = async () => {
        while (Date.now() < end) {
          const started = performance.now();
          const response = await fetch(server.ready.healthUrl);
          await response.arrayBuffer();
          health.push(performance.now() - started);
          if (response.status !== 200) unexpected.push(`health ${response.status}`);
          await sleep(50);
        }
      };
      await Promise.all([loop(), loop(), loop(), probe()]);
      const { maxRss } = await server.ask<{ maxRss: number }>('report');

      const p99 = percentile(health, 99);
      console.log(
        `pipeline load: ${runs} runs in ${SECONDS} s, health p50 ${percentile(health, 50).toFixed(1)} ms, ` +
          `p99 ${p99.toFixed(1)} ms over ${health.length} probes, server RSS ${(server.ready.idleRss / 1024 / 1024).toFixed(0)} MB idle, ${(maxRss / 1024 / 1024).toFixed(0)} MB at most`,
      );
      expect(unexpected.slice(0, 3)).toEqual([]);
      expect(runs).toBeGreaterThanOrEqual(3 * SECONDS);
      // Every run fetched the 1 MiB output; the amplified step never sent anything.
      expect(calls).toEqual({ big: runs, other: 0 });
      expect(p99).toBeLessThan(HEALTH_P99_MS);
      if (onPostgres) expect(maxRss).toBeLessThan(RSS_LIMIT);
      else expect(maxRss - server.ready.idleRss).toBeLessThan(RSS_GROWTH_LIMIT);
    },
    SECONDS * 1000 + 60_000,
  );
});
