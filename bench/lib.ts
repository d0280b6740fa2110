// Helpers for bench/run.ts: free ports, temp dirs, starting and stopping servers, load runs.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import * as prettier from 'prettier';
import { SERVER_ENV_DEFAULTS } from '../scripts/server-env.mjs';
import autocannon, { type Instance, type Options, type Result } from 'autocannon';

/** Prints a progress line on stderr, so stdout carries only the summary. */
export function note(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

/**
 * Runs a fresh `next build`, always: a stale `.next` would bundle old server code into the Next
 * route. Its output goes to stderr, so stdout carries only the summary. Returns seconds taken.
 */
export function buildProduction(cwd: string): number {
  note('running next build (fresh production build)');
  const started = performance.now();
  const build = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], {
    cwd,
    stdio: ['ignore', process.stderr, process.stderr],
  });
  if (build.status !== 0) throw new Error(`next build failed (exit ${build.status ?? build.signal})`);
  const seconds = (performance.now() - started) / 1000;
  note(`next build done in ${seconds.toFixed(1)} s`);
  return seconds;
}

/** A TCP port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export function makeTempDir(label: string): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), `vouchsafe-bench-${label}-`));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

const OUTPUT_LIMIT = 20_000;

export interface ServerHandle {
  name: string;
  baseUrl: string;
  child: ChildProcess;
  /** The last part of the server's stdout and stderr, for error reports. */
  output(): string;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
}

export interface StartOptions {
  name: string;
  args: string[];
  port: number;
  env: Record<string, string>;
  cwd: string;
}

/** Starts `node <args>` in its own process group, collecting its output. */
export function startServer({ name, args, port, env, cwd }: StartOptions): ServerHandle {
  let output = '';
  const child = spawn(process.execPath, args, {
    cwd,
    // as `npm start` runs it (scripts/server-env.mjs); NODE_ENV stays the caller's to set
    env: { MALLOC_ARENA_MAX: SERVER_ENV_DEFAULTS.MALLOC_ARENA_MAX, ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_LIMIT);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return { name, baseUrl: `http://127.0.0.1:${port}`, child, output: () => output, exited };
}

function running(server: ServerHandle): boolean {
  return server.child.exitCode === null && server.child.signalCode === null;
}

/** Polls `path` until it answers 200; fails when the process exits or `timeoutMs` passes. */
export async function waitForHealthy(server: ServerHandle, urlPath: string, timeoutMs = 120_000): Promise<number> {
  const started = performance.now();
  let last = 'no answer yet';
  while (performance.now() - started < timeoutMs) {
    if (!running(server)) {
      throw new Error(`${server.name} exited (code ${server.child.exitCode ?? server.child.signalCode}):\n${server.output()}`);
    }
    try {
      const response = await fetch(`${server.baseUrl}${urlPath}`, { signal: AbortSignal.timeout(10_000) });
      await response.arrayBuffer();
      if (response.status === 200) return performance.now() - started;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await sleep(250);
  }
  throw new Error(`${server.name} not healthy after ${timeoutMs / 1000} s (${last}):\n${server.output()}`);
}

/** Sends SIGTERM to the server's process group; SIGKILL when it has not exited after `graceMs`. */
export async function stopServer(server: ServerHandle, graceMs = 15_000): Promise<void> {
  if (!running(server) || server.child.pid === undefined) return;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-server.child.pid!, signal);
    } catch {
      // Already gone.
    }
  };
  signalGroup('SIGTERM');
  const timer = sleep(graceMs).then(() => 'timeout' as const);
  if ((await Promise.race([server.exited.then(() => 'exited' as const), timer])) === 'timeout') {
    note(`${server.name} did not stop within ${graceMs / 1000} s after SIGTERM; sending SIGKILL`);
    signalGroup('SIGKILL');
    await server.exited;
  }
}

export interface LoadOptions {
  title: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  /** Seconds measured. */
  duration: number;
  /** Seconds of load run first and discarded. */
  warmup: number;
  /** The status every response should have; default any 2xx. */
  expectStatus?: number;
  /** Return unexpected statuses in the result instead of failing above 1% of them. */
  allowFailures?: boolean;
}

export interface LoadResult {
  title: string;
  connections: number;
  /** autocannon's requests.average. */
  requestsPerSec: number;
  /** autocannon's latency.p50 and latency.p99: whole milliseconds, and only 2xx responses count. */
  p50: number;
  p99: number;
  /** Median and 99th percentile of every measured response's exact duration (autocannon's 'response' events). */
  exactP50: number;
  exactP99: number;
  /** Seconds the measured run actually lasted (autocannon's duration). */
  seconds: number;
  /** Responses per HTTP status. */
  statuses: Map<number, number>;
  /** Responses received in the measured run. */
  total: number;
  /** Responses with another status than expected, connection errors and timeouts. */
  failures: number;
  /** Connection errors and timeouts alone (no response). */
  errors: number;
}

const MAX_FAILURE_RATIO = 0.01;

let currentLoad: Instance | null = null;

/** Ends the load run in progress, if any (on interruption). */
export function stopLoad(): void {
  currentLoad?.stop();
}

/** Runs autocannon, reporting each response's status and exact duration (ms) to `onResponse`. */
async function run(options: Options, onResponse?: (status: number, durationMs: number) => void): Promise<Result> {
  const instance = autocannon(options);
  if (onResponse) {
    instance.on('response', (_client: unknown, status: number, _bytes: number, durationMs: number) =>
      onResponse(status, durationMs),
    );
  }
  currentLoad = instance;
  try {
    return await instance;
  } finally {
    currentLoad = null;
  }
}

/** One autocannon run: a discarded warm-up, then the measured run. */
export async function measure(options: LoadOptions): Promise<LoadResult> {
  const base = {
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: options.connections,
    timeout: 10,
  };
  if (options.warmup > 0) await run({ ...base, duration: options.warmup });
  const expected = (status: number) =>
    options.expectStatus === undefined ? status >= 200 && status < 300 : status === options.expectStatus;
  // autocannon's latency histogram keeps whole milliseconds of 2xx responses; keep every exact duration too.
  const durations: number[] = [];
  const statuses = new Map<number, number>();
  let unexpected = 0;
  const result = await run({ ...base, duration: options.duration, title: options.title }, (status, durationMs) => {
    durations.push(durationMs);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (!expected(status)) unexpected++;
  });
  const total = durations.length;
  const failures = unexpected + result.errors + result.timeouts;
  if (!options.allowFailures && (total === 0 || failures > MAX_FAILURE_RATIO * total)) {
    throw new Error(
      `${options.title}: ${failures} failed requests (unexpected status ${unexpected}, errors ${result.errors}, ` +
        `timeouts ${result.timeouts}) out of ${total}`,
    );
  }
  if (failures > 0) note(`${options.title}: ${failures} failed requests out of ${total}`);
  return {
    title: options.title,
    connections: options.connections,
    requestsPerSec: result.requests.average,
    p50: result['2xx'] > 0 ? result.latency.p50 : Number.NaN,
    p99: result['2xx'] > 0 ? result.latency.p99 : Number.NaN,
    exactP50: percentile(durations, 50),
    exactP99: percentile(durations, 99),
    seconds: result.duration,
    statuses,
    total,
    failures,
    errors: result.errors + result.timeouts,
  };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The p-th percentile (0-100): the median for 50, else the nearest-rank value. */
export function percentile(values: readonly number[], p: number): number {
  if (p === 50) return median(values);
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export interface EchoServer {
  baseUrl: string;
  port: number;
  /** Requests answered per path since the start. */
  hits(urlPath: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * A tiny invoke target on 127.0.0.1 (bench/echo-target.mjs) in a process of its own, as a real agent's endpoint
 * is: a request sent to it directly crosses the same process boundary as one the router forwards, so "router
 * added" (routed minus direct) is what the router costs, not the hop to a target in the client's own event loop.
 */
export async function startEchoServer(): Promise<EchoServer> {
  const child = spawn(process.execPath, [path.join(path.dirname(fileURLToPath(import.meta.url)), 'echo-target.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`echo target exited (${code}) before listening`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const line = out.split('\n')[0]!;
      if (out.includes('\n')) resolve((JSON.parse(line) as { port: number }).port);
    });
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    port,
    hits: async (urlPath) => {
      const response = await fetch(`${baseUrl}/__hits`);
      const counts = (await response.json()) as Record<string, number>;
      return counts[urlPath] ?? 0;
    },
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}

/** A markdown table from a header row and data rows; columns of figures are right-aligned. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  const figure = /^(\d|n\/a$)/;
  const rule = header.map((_, column) => (rows.every((row) => figure.test(row[column] ?? '')) ? '---:' : '---'));
  return [line(header), line(rule), ...rows.map(line)].join('\n');
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatInt(value: number): string {
  return integer.format(value);
}

/** A latency from autocannon's histogram, which holds whole milliseconds. */
export function formatWholeMs(value: number): string {
  return Number.isFinite(value) ? `${value} ms` : 'n/a';
}

/** Milliseconds with a precision that suits the value: 0.214 ms, 5.37 ms, 62.1 ms. */
export function formatMs(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  const digits = Math.abs(value) < 1 ? 3 : Math.abs(value) < 10 ? 2 : 1;
  return `${value.toFixed(digits)} ms`;
}

/**
 * The sections that `npm run bench -- scale` (PostgreSQL, and the PGlite cold pass) and `npm run bench -- paid`
 * write into docs/benchmarks.md between `<!-- name:start -->` and `<!-- name:end -->`; a full run keeps them.
 */
export const MARKED_SECTIONS = ['scale', 'scale-pglite', 'paid'] as const;
export type MarkedSection = (typeof MARKED_SECTIONS)[number];

const markers = (name: MarkedSection) => [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`] as const;

/** A marked section of a report, markers included; '' when absent. */
export function markedSection(report: string, name: MarkedSection): string {
  const [open, close] = markers(name);
  const start = report.indexOf(open);
  const end = report.indexOf(close);
  return start >= 0 && end > start ? report.slice(start, end + close.length) : '';
}

/** Puts `body` between the section's markers in the Markdown file at `file` (appended when absent), formatted. */
export async function writeMarkedSection(file: string, name: MarkedSection, body: string): Promise<void> {
  const [open, close] = markers(name);
  const section = `${open}\n${body.trim()}\n${close}`;
  const report = await readFile(file, 'utf8');
  const previous = markedSection(report, name);
  const next = previous ? report.replace(previous, () => section) : `${report.trimEnd()}\n\n${section}\n`;
  await writeFile(file, await prettier.format(next, { ...(await prettier.resolveConfig(file)), filepath: file }));
}
