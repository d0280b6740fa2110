// Throughput on every core (issue 22): `npx tsx bench/throughput.ts` writes docs/benchmarks-throughput.md.
//
// 1. The door: `GET /api/v1/health` through server.ts (one process, embedded database) next to a raw
//    node:http server answering the same JSON text, same client, interleaved rounds; the ratio of each
//    round and their median. autocannon runs in a process of its own, so client and servers never share
//    an event loop. Next to req/s: the CPU time each server process spent per answered request (from
//    /proc), which the other load on a shared machine disturbs far less than req/s.
// 2. Every core: on PostgreSQL (DATABASE_URL, or BENCH_DATABASE_URL) server.ts with WEB_CONCURRENCY=1
//    and 2 on health and a public read (`GET /api/agents?limit=20`), interleaved the same way.
// Size: THROUGHPUT_ROUNDS (default 3), THROUGHPUT_SECONDS (default 5 per run), 50 connections.
// THROUGHPUT_SECTIONS=door runs the door only; THROUGHPUT_BASELINE=<checkout> adds that checkout's
// server.ts to the door's rounds (before and after a change, in one run).
import { execFile, execFileSync, spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import * as prettier from 'prettier';
import { parsePostgresUrl } from '../server/core/db/open';
import { buildIsStale } from '../scripts/build-state.mjs';
import {
  buildProduction,
  formatInt,
  freePort,
  makeTempDir,
  median,
  note,
  removeDir,
  startServer,
  stopServer,
  table,
  waitForHealthy,
  type ServerHandle,
} from './lib';
import { SERVER_NODE_ARGS } from '../scripts/server-env.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPORT = path.join(ROOT, 'docs', 'benchmarks-throughput.md');
const ROUNDS = Number(process.env.THROUGHPUT_ROUNDS ?? 3);
const SECONDS = Number(process.env.THROUGHPUT_SECONDS ?? 5);
const CONNECTIONS = 50;
const HEALTH = '/api/v1/health';
const PUBLIC_READ = '/api/agents?limit=20';
const TARGET_DOOR_RATIO = 0.7;
/** THROUGHPUT_SECTIONS=door runs the door section only (default: door,workers). */
const SECTIONS = (process.env.THROUGHPUT_SECTIONS ?? 'door,workers').split(',');
/**
 * THROUGHPUT_BASELINE=<directory of another checkout, with node_modules>: its server.ts answers in the
 * door section's rounds too, so a change to the door is measured before and after in one run.
 */
const BASELINE = process.env.THROUGHPUT_BASELINE
  ? {
      dir: path.resolve(process.env.THROUGHPUT_BASELINE),
      label: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: process.env.THROUGHPUT_BASELINE }).toString().trim(),
    }
  : null;

const SERVER_ENV = { NODE_ENV: 'production', LOG_LEVEL: 'silent', ALLOW_PRIVATE_URLS: 'true' };
/**
 * The door section's servers use the embedded database even when DATABASE_URL is set for the workers
 * section (an empty variable counts as unset): inherited, it put them on PostgreSQL's public schema with a
 * worker per core.
 */
const EMBEDDED = { DATABASE_URL: '', DATABASE_REPLICA_URL: '' };

const servers: ServerHandle[] = [];
const tempDirs: string[] = [];

interface Run {
  rps: number;
  total: number;
  non2xx: number;
  errors: number;
  /** CPU time the server's processes spent per answered request, µs. */
  cpuUsPerRequest: number;
}

/** User + system CPU time of a process and its children that are still alive, in clock ticks. */
function cpuTicks(pid: number): number {
  const pids = [pid, ...childPids(pid)];
  let ticks = 0;
  for (const each of pids) {
    try {
      const fields = readFileSync(`/proc/${each}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Gone, or no /proc: counted as nothing.
    }
  }
  return ticks;
}

function childPids(pid: number): number[] {
  try {
    const out: number[] = [];
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of children ? children.split(' ').map(Number) : []) out.push(child, ...childPids(child));
    }
    return out;
  } catch {
    return [];
  }
}

/** CLK_TCK, for ticks to µs (100 on Linux; asked once). */
let ticksPerSecond = 100;
async function readClockTicks(): Promise<void> {
  ticksPerSecond = await new Promise<number>((resolve) =>
    execFile('getconf', ['CLK_TCK'], (error, stdout) => resolve(error ? 100 : Number(stdout.trim()) || 100)),
  );
}

/** One autocannon run in a child process of its own; `pid` is the server process measured for CPU. */
async function load(url: string, pid: number, seconds = SECONDS): Promise<Run> {
  const before = cpuTicks(pid);
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'node_modules/autocannon/autocannon.js'), '-c', String(CONNECTIONS), '-d', String(seconds), '-j', url],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const after = cpuTicks(pid);
  if (code !== 0) throw new Error(`autocannon ${url} exited ${code}`);
  const result = JSON.parse(out) as {
    requests: { average: number; total: number };
    non2xx: number;
    errors: number;
    timeouts: number;
  };
  const total = result.requests.total;
  return {
    rps: result.requests.average,
    total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    cpuUsPerRequest: total > 0 ? ((after - before) / ticksPerSecond / total) * 1e6 : Number.NaN,
  };
}

function check(run: Run, what: string): Run {
  if (run.total === 0 || run.non2xx + run.errors > run.total * 0.01) {
    throw new Error(`${what}: ${run.non2xx} non-2xx and ${run.errors} errors of ${run.total}`);
  }
  return run;
}

async function launch(name: string, env: Record<string, string>, cwd = ROOT): Promise<ServerHandle> {
  const port = await freePort();
  const dataDir = await makeTempDir(name.replace(/\W+/g, '-'));
  tempDirs.push(dataDir);
  note(`starting ${name} on port ${port}`);
  const server = startServer({
    name,
    args: [...SERVER_NODE_ARGS, 'server.ts'],
    port,
    cwd,
    env: { ...SERVER_ENV, PORT: String(port), DATA_DIR: dataDir, ...env },
  });
  servers.push(server);
  await waitForHealthy(server, HEALTH);
  return server;
}

/**
 * A node:http server answering every request with `body` as JSON, in a process of its own; the text is
 * made once, as the door makes a health report's text once.
 */
async function launchRaw(body: unknown): Promise<ServerHandle> {
  const port = await freePort();
  const source = `
    const text = ${JSON.stringify(JSON.stringify(body))};
    require('node:http').createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(text);
    }).listen(${port}, '127.0.0.1');`;
  const server = startServer({ name: 'raw node:http', args: ['-e', source], port, cwd: ROOT, env: {} });
  servers.push(server);
  await waitForHealthy(server, HEALTH);
  return server;
}

interface Target {
  name: string;
  url: string;
  pid: number;
}

interface Comparison {
  label: string;
  /** The first is the reference the others are compared with. */
  names: string[];
  /** runs[target][round] */
  runs: Run[][];
}

/**
 * Interleaved rounds: every target once per round, the order turning each round (a b c, b c a, ...),
 * so a drift in the machine's load hits all alike.
 */
async function compare(label: string, targets: Target[]): Promise<Comparison> {
  const result: Comparison = { label, names: targets.map((target) => target.name), runs: targets.map(() => []) };
  note(`warm-up: ${label}`);
  for (const target of targets) await load(target.url, target.pid, 2);
  for (let round = 0; round < ROUNDS; round++) {
    for (let step = 0; step < targets.length; step++) {
      const index = (round + step) % targets.length;
      const target = targets[index]!;
      note(`round ${round + 1}/${ROUNDS}: ${label}, ${target.name}`);
      result.runs[index]![round] = check(await load(target.url, target.pid), `${label} ${target.name}`);
    }
  }
  return result;
}

/** Target `index`'s req/s over the reference's, per round. */
const ratios = (result: Comparison, index: number): number[] =>
  result.runs[index]!.map((run, round) => run.rps / result.runs[0]![round]!.rps);

const fmtRatio = (value: number) => `${value.toFixed(2)}x`;
const fmtUs = (value: number) => `${value.toFixed(1)} µs`;

function renderComparison(result: Comparison): string {
  const others = result.names.slice(1).map((_name, i) => i + 1);
  const reference = result.names[0]!;
  const rows = result.runs[0]!.map((_run, round) => [
    String(round + 1),
    ...result.runs.map((runs) => formatInt(runs[round]!.rps)),
    ...others.map((index) => fmtRatio(ratios(result, index)[round]!)),
    ...result.runs.map((runs) => fmtUs(runs[round]!.cpuUsPerRequest)),
  ]);
  rows.push([
    'median',
    ...result.runs.map((runs) => formatInt(median(runs.map((r) => r.rps)))),
    ...others.map((index) => `**${fmtRatio(median(ratios(result, index)))}**`),
    ...result.runs.map((runs) => fmtUs(median(runs.map((r) => r.cpuUsPerRequest)))),
  ]);
  return table(
    [
      'round',
      ...result.names.map((name) => `${name} req/s`),
      ...others.map((index) => `${result.names[index]} / ${reference}`),
      ...result.names.map((name) => `${name} CPU/request`),
    ],
    rows,
  );
}

async function main(): Promise<void> {
  await readClockTicks();
  if (buildIsStale(ROOT)) buildProduction(ROOT);
  if (BASELINE && buildIsStale(BASELINE.dir)) buildProduction(BASELINE.dir);
  const loadAverage = os.loadavg();
  const startedAt = new Date();

  // 1. The door against raw node:http (and, with THROUGHPUT_BASELINE, another checkout's door in the same rounds).
  const door = await launch('server.ts (PGlite)', EMBEDDED);
  const baseline = BASELINE ? await launch(`baseline ${BASELINE.label}`, EMBEDDED, BASELINE.dir) : null;
  const health = await (await fetch(`${door.baseUrl}${HEALTH}`)).json();
  const raw = await launchRaw(health);
  const target = (name: string, server: ServerHandle) => ({ name, url: `${server.baseUrl}${HEALTH}`, pid: server.child.pid! });
  const doorResult = await compare(`GET ${HEALTH}`, [
    target('raw node:http', raw),
    target('fast door', door),
    ...(baseline ? [target(`before (${BASELINE!.label})`, baseline)] : []),
  ]);
  for (const server of [door, raw, baseline]) if (server) await stopServer(server);

  // 2. One worker against two, on PostgreSQL.
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  const workerResults: Comparison[] = [];
  if (!SECTIONS.includes('workers')) {
    note('THROUGHPUT_SECTIONS leaves out workers');
  } else if (databaseUrl) {
    const schemaUrl = (name: string) => {
      const url = new URL(databaseUrl);
      url.searchParams.set('schema', `bench_${name}_${process.pid}`);
      return url.toString();
    };
    const one = await launch('1 worker', { DATABASE_URL: schemaUrl('w1'), WEB_CONCURRENCY: '1' });
    const two = await launch('2 workers', { DATABASE_URL: schemaUrl('w2'), WEB_CONCURRENCY: '2' });
    // The second worker may still be starting when the first answers health.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    for (const urlPath of [HEALTH, PUBLIC_READ]) {
      workerResults.push(
        await compare(`GET ${urlPath}`, [
          { name: '1 worker', url: `${one.baseUrl}${urlPath}`, pid: one.child.pid! },
          { name: '2 workers', url: `${two.baseUrl}${urlPath}`, pid: two.child.pid! },
        ]),
      );
    }
    await stopServer(one);
    await stopServer(two);
    await dropSchemas(
      databaseUrl,
      ['w1', 'w2'].map((name) => `bench_${name}_${process.pid}`),
    );
  } else {
    note('no DATABASE_URL or BENCH_DATABASE_URL: skipping 1 vs 2 workers (PostgreSQL only)');
  }

  const doorRatio = median(ratios(doorResult, 1));
  const baselineNote = baseline
    ? `\n\nThe same rounds also ran \`server.ts\` of ${BASELINE!.label} (\`THROUGHPUT_BASELINE=${BASELINE!.dir}\`): ` +
      `**${fmtRatio(median(ratios(doorResult, 2)))}** raw node:http's throughput; the fast door of this checkout answers ` +
      `**${fmtRatio(median(doorResult.runs[1]!.map((run, round) => run.rps / doorResult.runs[2]![round]!.rps)))}** its req/s.`
    : '';
  const report = `# Throughput on every core

Generated by \`npx tsx bench/throughput.ts\` on ${startedAt.toISOString()} (${os.cpus().length} cores, load average at start
${loadAverage.map((v) => v.toFixed(2)).join(', ')}). ${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} interleaved rounds;
autocannon runs in a process of its own. The machine is shared: absolute req/s move with the other load, so only
ratios measured in the same round compare like with like. CPU/request is the CPU time (user + system) the server's
processes spent per answered request while under load, read from /proc.

## The fast door against raw node:http

\`server.ts\` (one process, embedded database, \`LOG_LEVEL=silent\`) answers \`GET ${HEALTH}\`; a raw node:http
server in a process of its own answers every request with the same JSON text, serialized once (the door serializes
each health report once, and a report lasts up to a second).

${renderComparison(doorResult)}

The fast door answers at **${fmtRatio(doorRatio)}** raw node:http's throughput (target ${fmtRatio(TARGET_DOOR_RATIO)}:
${doorRatio >= TARGET_DOOR_RATIO ? 'met' : 'not met'}).${baselineNote}

## One worker against two (PostgreSQL)

${
  workerResults.length === 0
    ? 'Not measured in this run: set DATABASE_URL or BENCH_DATABASE_URL to a PostgreSQL server.'
    : `\`server.ts\` on PostgreSQL with \`WEB_CONCURRENCY=1\` and \`WEB_CONCURRENCY=2\` (each its own schema); the
CPU/request column sums the primary and its workers. On a machine with ${os.cpus().length} cores shared with the load
generator (and other work), two workers can gain at most what the cores left idle by one allow.

${workerResults.map((result) => `### \`${result.label}\`\n\n${renderComparison(result)}`).join('\n\n')}`
}
`;
  const markdown = await prettier.format(report, { ...(await prettier.resolveConfig(REPORT)), filepath: REPORT });
  await writeFile(REPORT, markdown);
  process.stdout.write(markdown);
  note(`wrote ${path.relative(ROOT, REPORT)}`);
}

async function dropSchemas(databaseUrl: string, schemas: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: parsePostgresUrl(databaseUrl).connectionString });
  await client.connect();
  try {
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

async function cleanup(): Promise<void> {
  await Promise.all(servers.map((server) => stopServer(server)));
  await Promise.all(tempDirs.map((dir) => removeDir(dir)));
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void cleanup().finally(() => process.exit(130)));
}

try {
  await main();
  await cleanup();
} catch (error) {
  console.error(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  await cleanup();
  process.exit(1);
}
