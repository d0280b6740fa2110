// Paid calls and sign-in on either database (issue 22, item 2): `npm run bench -- paid` (or `npx tsx bench/paid.ts`).
// With DATABASE_URL (or BENCH_DATABASE_URL) set to PostgreSQL, server.ts runs on a schema of its own there;
// without, on embedded PGlite. Measures, on one server:
//   1. the router's added latency: `POST /api/v1/agents/{id}/invoke` (price 0) against the same POST sent to the
//      echo target directly, at 1 and 10 connections (p50 from every response's exact duration);
//   2. paid invocations end to end at 50 connections (price 1 micro-CLAW: caller charged into escrow, target called,
//      owner paid, agent.invoked logged), then the caller's and the owner's balances must be exact;
//   3. sign-ins per second (POST /api/v1/auth/challenge, personal_sign, POST /api/v1/auth/verify) from 50 workers.
// Prints a Markdown section and puts it between the paid markers of docs/benchmarks.md (PAID_WRITE=0: print only).
// The router is measured in PAID_ROUTER_ROUNDS interleaved rounds (3 by default) and reported as their medians, each
// round listed; PAID_ROUTER_ONLY=1 measures only that and prints it (the quick loop of a router change).
import { readFileSync, readdirSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { bytesToHex, hashMessage, hexToBytes, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { parsePostgresUrl } from '../server/core/db/open';
import {
  formatInt,
  formatMs,
  freePort,
  makeTempDir,
  measure,
  median,
  note,
  removeDir,
  startEchoServer,
  startServer,
  stopLoad,
  stopServer,
  table,
  waitForHealthy,
  writeMarkedSection,
  type EchoServer,
  type LoadResult,
  type ServerHandle,
} from './lib';
import { SERVER_NODE_ARGS } from '../scripts/server-env.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPORT = path.join(ROOT, 'docs', 'benchmarks.md');

const DURATION_S = Number(process.env.PAID_SECONDS ?? 8);
const WARMUP_S = 2;
const PAID_CONNECTIONS = 50;
const SIGN_IN_WORKERS = 50;
const MICRO = 1_000_000;
const PRICE_MICRO = 1;
const INVOKE_BODY = JSON.stringify({ ping: 1 });
const TARGETS = { paidPerSec: 1_000, routerOneMs: 1, routerTenMs: 5, signInsPerSec: 500 };

const SERVER_ENV = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  RATE_LIMIT_AUTH: '1000000/1m',
  RATE_LIMIT_BOOTSTRAP: '100000/1m',
  RATE_LIMIT_WRITE: '1000000/1m',
  ALLOW_PRIVATE_URLS: 'true',
  // A raise applies at once (no notice period), so the paid run pays the new price from its first call.
  PRICE_NOTICE_SECONDS: '0',
};

const servers: ServerHandle[] = [];
const tempDirs: string[] = [];
let echo: EchoServer | null = null;

/** User + system CPU time of a process and its live descendants (the cluster's workers), in seconds (CLK_TCK 100). */
function cpuSeconds(pid: number): number {
  const descendants = (parent: number): number[] => {
    try {
      return readdirSync(`/proc/${parent}/task`).flatMap((task) => {
        const children = readFileSync(`/proc/${parent}/task/${task}/children`, 'utf8').trim();
        return children
          ? children
              .split(' ')
              .map(Number)
              .flatMap((child) => [child, ...descendants(child)])
          : [];
      });
    } catch {
      return [];
    }
  };
  let ticks = 0;
  for (const each of [pid, ...descendants(pid)]) {
    try {
      const fields = readFileSync(`/proc/${each}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Gone, or no /proc.
    }
  }
  return ticks / 100;
}

// node:http with keep-alive rather than fetch: the bench shares the machine's two cores with the server, and
// undici's fetch took about 1 ms of CPU a request here, most of a core at 500 sign-ins/s (two requests each).
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function call(method: string, url: string, options: { body?: unknown; token?: string } = {}): Promise<any> {
  const headers: Record<string, string> = {};
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers, agent, timeout: 30_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const status = response.statusCode ?? 0;
        if (status < 200 || status >= 300) reject(new Error(`${method} ${url}: HTTP ${status} ${text}`));
        else resolve(JSON.parse(text));
      });
    });
    request.on('timeout', () => request.destroy(new Error(`${method} ${url}: no answer in 30 s`)));
    request.on('error', reject);
    request.end(body);
  });
}

interface Signer {
  account: PrivateKeyAccount;
  key: Hex;
}

function newSigner(): Signer {
  const key = generatePrivateKey();
  return { account: privateKeyToAccount(key), key };
}

// The agents sign on their own machines: the bench signs with the native libsecp256k1 addon (~0.05 ms) rather than
// viem's JavaScript (~1.6 ms here, most of a core at 500 sign-ins/s taken from the server it measures).
const nativeSign = (() => {
  try {
    return (
      createRequire(import.meta.url)('secp256k1/bindings') as {
        ecdsaSign(msg32: Uint8Array, key: Uint8Array): { signature: Uint8Array; recid: number };
      }
    ).ecdsaSign;
  } catch {
    return null;
  }
})();

async function personalSign(signer: Signer, message: string): Promise<Hex> {
  if (!nativeSign) return signer.account.signMessage({ message });
  const { signature, recid } = nativeSign(hexToBytes(hashMessage(message)), hexToBytes(signer.key));
  return `${bytesToHex(signature)}${(27 + recid).toString(16)}` as Hex;
}

async function signIn(baseUrl: string, signer: Signer, agentPubkey: string): Promise<string> {
  const { challenge, challenge_id } = await call('POST', `${baseUrl}/api/v1/auth/challenge`, {
    body: { owner_wallet: signer.account.address, agent_pubkey: agentPubkey },
  });
  const signature = await personalSign(signer, challenge);
  const verified = await call('POST', `${baseUrl}/api/v1/auth/verify`, { body: { challenge_id, signature } });
  if (typeof verified.token !== 'string') throw new Error(`verify returned no token: ${JSON.stringify(verified)}`);
  return verified.token as string;
}

async function balanceMicro(baseUrl: string, token: string): Promise<number> {
  const credits = await call('GET', `${baseUrl}/api/v1/credits`, { token });
  return Math.round(credits.balance_claw * MICRO);
}

function load(title: string, url: string, connections: number, headers: Record<string, string>, warmup = WARMUP_S) {
  note(`load: ${title} (${connections} connections)`);
  return measure({
    title,
    url,
    connections,
    duration: DURATION_S,
    warmup,
    method: 'POST',
    body: INVOKE_BODY,
    headers,
    allowFailures: true,
  });
}

async function waitIdle(echoPath: string): Promise<void> {
  let last = -1;
  while ((await echo!.hits(echoPath)) !== last) {
    last = await echo!.hits(echoPath);
    await sleep(1_000);
  }
}

export interface PaidResults {
  database: string;
  loadAverage: number[];
  startedAt: Date;
  router: RouterRound[];
  paid: LoadResult;
  paidPerSec: number;
  /** CPU time server.ts (all its processes) spent per paid response, ms: far less disturbed by other load than req/s. */
  paidCpuMs: number;
  forwarded: number;
  callerExact: boolean;
  ownerExact: boolean;
  callerBefore: number;
  callerAfter: number;
  ownerBefore: number;
  ownerAfter: number;
  signIns: number;
  signInSeconds: number;
}

async function signInRate(baseUrl: string): Promise<{ count: number; seconds: number }> {
  // A fixed set of wallets signs in again and again (a returning wallet's path: challenge, verify, token).
  const signers = Array.from({ length: SIGN_IN_WORKERS }, newSigner);
  await Promise.all(signers.map((signer, i) => signIn(baseUrl, signer, `bench-signin-${i}`)));
  note(`sign-in: ${SIGN_IN_WORKERS} workers for ${DURATION_S} s`);
  let count = 0;
  const started = performance.now();
  const until = started + DURATION_S * 1000;
  await Promise.all(
    signers.map(async (signer, i) => {
      while (performance.now() < until) {
        await signIn(baseUrl, signer, `bench-signin-${i}`);
        count++;
      }
    }),
  );
  return { count, seconds: (performance.now() - started) / 1000 };
}

/** One round of the router's four loads: p50 (exact) of each. */
interface RouterRound {
  routedOne: number;
  directOne: number;
  routedTen: number;
  directTen: number;
  routedTenPerSec: number;
}

/** What the router added in a round: routed p50 minus direct p50, at one connection or at ten. */
const added = (round: RouterRound, connections: 1 | 10) =>
  connections === 1 ? round.routedOne - round.directOne : round.routedTen - round.directTen;
const medianAdded = (rounds: RouterRound[], connections: 1 | 10) => median(rounds.map((round) => added(round, connections)));

/**
 * The router's added latency in PAID_ROUTER_ROUNDS interleaved rounds of the four loads (routed and direct, 1 and 10
 * connections), each printed. Reported as the medians of the rounds: one round taken alone moves with whatever the
 * machine does in those seconds (0.9-2.1 ms at one connection over twelve single runs of one build, 2026-11-25), and the
 * interleaving puts a direct load beside each routed one. PAID_ROUTER_ONLY=1: this alone (nothing written).
 */
const ROUTER_ROUNDS = Math.max(1, Number(process.env.PAID_ROUTER_ROUNDS ?? 3));
const ROUTER_ONLY = process.env.PAID_ROUTER_ONLY === '1';

async function routerRounds(
  invokeUrl: string,
  echoUrl: string,
  headers: Record<string, string>,
  direct: Record<string, string>,
): Promise<RouterRound[]> {
  const rounds: RouterRound[] = [];
  for (let round = 1; round <= ROUTER_ROUNDS; round++) {
    const routedOne = await load('router, 1 connection', invokeUrl, 1, headers);
    const directOne = await load('echo directly, 1 connection', echoUrl, 1, direct);
    const routedTen = await load('router, 10 connections', invokeUrl, 10, headers);
    const directTen = await load('echo directly, 10 connections', echoUrl, 10, direct);
    const measured: RouterRound = {
      routedOne: routedOne.exactP50,
      directOne: directOne.exactP50,
      routedTen: routedTen.exactP50,
      directTen: directTen.exactP50,
      routedTenPerSec: routedTen.requestsPerSec,
    };
    rounds.push(measured);
    process.stdout.write(
      `round ${round}: router added ${formatMs(added(measured, 1))} (1 conn: ${formatMs(measured.routedOne)} vs ${formatMs(measured.directOne)}), ` +
        `${formatMs(added(measured, 10))} (10 conn: ${formatMs(measured.routedTen)} vs ${formatMs(measured.directTen)}; ${formatInt(measured.routedTenPerSec)} req/s)\n`,
    );
  }
  process.stdout.write(
    `median of ${ROUTER_ROUNDS} rounds: router added ${formatMs(medianAdded(rounds, 1))} (1 conn), ${formatMs(medianAdded(rounds, 10))} (10 conn)\n`,
  );
  return rounds;
}

async function run(): Promise<PaidResults | null> {
  const startedAt = new Date();
  const loadAverage = os.loadavg();
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  const schema = `bench_paid_${process.pid}`;
  const env: Record<string, string> = { ...SERVER_ENV };
  if (process.env.WEB_CONCURRENCY) env.WEB_CONCURRENCY = process.env.WEB_CONCURRENCY;
  if (databaseUrl) {
    const url = new URL(databaseUrl);
    url.searchParams.set('schema', schema);
    env.DATABASE_URL = url.toString();
  }
  const port = await freePort();
  const dataDir = await makeTempDir('paid');
  tempDirs.push(dataDir);
  const server = startServer({
    name: 'server.ts',
    args: [...SERVER_NODE_ARGS, ...(process.env.PAID_NODE_ARGS?.split(' ').filter(Boolean) ?? []), 'server.ts'],
    port,
    cwd: ROOT,
    env: { ...env, PORT: String(port), DATA_DIR: dataDir },
  });
  servers.push(server);
  try {
    await waitForHealthy(server, '/api/v1/health');
    const base = server.baseUrl;
    echo = await startEchoServer();
    const owner = await signIn(base, newSigner(), 'bench-owner');
    const created = await call('POST', `${base}/api/v1/agents`, { token: owner, body: { agent_name: 'Echo target' } });
    const targetId = created.agent_id as string;
    const retarget = (echoPath: string, priceMicro: number) =>
      call('PATCH', `${base}/api/v1/agents/${targetId}`, {
        token: owner,
        body: { is_callable: true, invoke_url: `${echo!.baseUrl}${echoPath}`, price_claw_per_call: priceMicro / MICRO },
      });
    await retarget('/free', 0);
    const caller = await signIn(base, newSigner(), 'bench-caller');
    await call('POST', `${base}/api/v1/agents/bootstrap`, { token: caller, body: {} });
    const invokeUrl = `${base}/api/v1/agents/${targetId}/invoke`;
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${caller}` };
    const direct = { 'content-type': 'application/json' };
    await call('POST', invokeUrl, { token: caller, body: { ping: 1 } });

    // 1. The router's added latency.
    const router = await routerRounds(invokeUrl, `${echo.baseUrl}/free`, headers, direct);
    if (ROUTER_ONLY) return null;

    // 2. Paid invocations end to end.
    await retarget('/paid', PRICE_MICRO);
    const check = await call('POST', invokeUrl, { token: caller, body: { ping: 1 } });
    if (check.fee_claw !== PRICE_MICRO / MICRO) throw new Error(`a paid invocation answered ${JSON.stringify(check)}`);
    const callerBefore = await balanceMicro(base, caller);
    const ownerBefore = await balanceMicro(base, owner);
    const cpuBefore = cpuSeconds(server.child.pid!);
    const paid = await load('paid invocations, 50 connections', invokeUrl, PAID_CONNECTIONS, headers, 0);
    await waitIdle('/paid');
    const forwarded = (await echo.hits('/paid')) - 1;
    const paidCpuMs = ((cpuSeconds(server.child.pid!) - cpuBefore) * 1000) / Math.max(1, forwarded);
    const callerAfter = await balanceMicro(base, caller);
    const ownerAfter = await balanceMicro(base, owner);
    const successes = [...paid.statuses].filter(([status]) => status >= 200 && status < 300).reduce((n, [, c]) => n + c, 0);

    // 3. Sign-ins.
    const signIns = await signInRate(base);

    return {
      database: databaseUrl ? 'PostgreSQL' : 'PGlite',
      loadAverage,
      startedAt,
      router,
      paid,
      paidPerSec: successes / paid.seconds,
      paidCpuMs,
      forwarded,
      callerBefore,
      callerAfter,
      ownerBefore,
      ownerAfter,
      callerExact: callerAfter === callerBefore - forwarded * PRICE_MICRO,
      ownerExact: ownerAfter === ownerBefore + forwarded * PRICE_MICRO,
      signIns: signIns.count,
      signInSeconds: signIns.seconds,
    };
  } finally {
    await stopServer(server);
    if (databaseUrl) await dropSchema(databaseUrl, schema);
  }
}

const claw = (micro: number) => `${(micro / MICRO).toFixed(6)} CLAW`;
const met = (ok: boolean) => (ok ? 'met' : 'not met');

export function renderPaid(results: PaidResults[]): string {
  const rows = results.map((r) => {
    const one = medianAdded(r.router, 1);
    const ten = medianAdded(r.router, 10);
    return [
      r.database,
      `${formatInt(r.paidPerSec)} (${met(r.paidPerSec >= TARGETS.paidPerSec)})`,
      `${formatMs(r.paid.exactP50)} / ${formatMs(r.paid.exactP99)}`,
      formatMs(r.paidCpuMs),
      `${r.paid.failures}`,
      r.callerExact && r.ownerExact ? 'exact' : '**not exact**',
      `${formatMs(one)} (${met(one <= TARGETS.routerOneMs)})`,
      `${formatMs(ten)} (${met(ten <= TARGETS.routerTenMs)})`,
      `${formatInt(r.signIns / r.signInSeconds)} (${met(r.signIns / r.signInSeconds >= TARGETS.signInsPerSec)})`,
      r.loadAverage.map((v) => v.toFixed(2)).join(', '),
    ];
  });
  const detail = results
    .map(
      (r) =>
        `- ${r.database} (${r.startedAt.toISOString()}): ${formatInt(r.paid.total)} paid responses in ${r.paid.seconds.toFixed(2)} s, ` +
        `the echo target answered ${formatInt(r.forwarded)}; caller ${claw(r.callerBefore)} → ${claw(r.callerAfter)}, ` +
        `owner ${claw(r.ownerBefore)} → ${claw(r.ownerAfter)} (each must move by exactly ${formatInt(r.forwarded)} × 0.000001). ` +
        `Router p50 (exact), routed vs direct, in its ${r.router.length} rounds: ` +
        r.router
          .map(
            (round, i) =>
              `${i + 1}. ${formatMs(round.routedOne)} vs ${formatMs(round.directOne)} on 1 connection (added ${formatMs(added(round, 1))}), ` +
              `${formatMs(round.routedTen)} vs ${formatMs(round.directTen)} on 10 (added ${formatMs(added(round, 10))})`,
          )
          .join('; ') +
        '. ' +
        `${formatInt(r.signIns)} sign-ins in ${r.signInSeconds.toFixed(2)} s.`,
    )
    .join('\n');
  return `## Paid calls, the router and sign-in (PostgreSQL or PGlite)

\`npm run bench -- paid\` (\`bench/paid.ts\`; on PostgreSQL when \`DATABASE_URL\` or \`BENCH_DATABASE_URL\` is set, on a
schema of its own, else on embedded PGlite). One \`server.ts\` (\`WEB_CONCURRENCY\` as set, else one worker per core on PostgreSQL; \`NODE_ENV=production\`, \`LOG_LEVEL=silent\`,
rate limits raised out of the way); autocannon runs in the benchmark process and the echo target in a process of its own (as a real target is), on the same
${os.cpus().length}-core machine (${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}). Paid: price 0.000001 CLAW, ${PAID_CONNECTIONS} connections, ${DURATION_S} s, no warm-up; each call
charges the caller into escrow, forwards (RFC 9421 signed), pays the owner and logs \`agent.invoked\`; afterwards
\`GET /api/v1/credits\` of the caller and of the owner must have moved by exactly one price per call the echo target
answered (a paid call waits for two database statements: the charge, and the settlement with its event, each grouped
with the other calls' in flight; a free one for one, its record and event once answered). Server CPU per paid call: user + system time of every \`server.ts\` process
during the run divided by the calls answered, far less disturbed by other load than req/s. Router added = p50 (exact) of the routed call (price 0) minus the same POST to the echo target directly (both cross to the target's process; the routed call crosses to the server's as well), in ${ROUTER_ROUNDS} interleaved rounds (${WARMUP_S} s warm-up and ${DURATION_S} s each load) first thing after the server is up; the table gives the medians of the rounds, the line below each round.
Sign-in: ${SIGN_IN_WORKERS} wallets each loop challenge → \`personal_sign\` (in the benchmark process) → verify for ${DURATION_S} s.
Targets: ≥ ${formatInt(TARGETS.paidPerSec)} paid/s on PostgreSQL, router ≤ ${TARGETS.routerOneMs} ms (1 connection) and ≤ ${TARGETS.routerTenMs} ms (10), ≥ ${TARGETS.signInsPerSec} sign-ins/s.

${table(
  [
    'database',
    'paid invocations/s',
    'paid p50 / p99',
    'server CPU per paid call',
    'paid non-2xx',
    'balances',
    'router added, 1 conn',
    'router added, 10 conn',
    'sign-ins/s',
    'load average at start',
  ],
  rows,
)}

${detail}`;
}

async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: parsePostgresUrl(databaseUrl).connectionString });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

async function cleanup(): Promise<void> {
  agent.destroy();
  stopLoad();
  await Promise.all(servers.map((server) => stopServer(server)));
  await echo?.close();
  await Promise.all(tempDirs.map((dir) => removeDir(dir)));
}

async function main(): Promise<void> {
  const result = await run();
  if (!result) return;
  const results = [result];
  const section = renderPaid(results);
  process.stdout.write(`${section}\n`);
  if (process.env.PAID_WRITE !== '0') {
    await writeMarkedSection(REPORT, 'paid', section);
    note(`wrote ${path.relative(ROOT, REPORT)}`);
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void cleanup().finally(() => process.exit(130)));
}

try {
  await main();
  await cleanup();
  process.exit(0);
} catch (error) {
  console.error(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  await cleanup();
  process.exit(1);
}
