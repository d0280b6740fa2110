// npm run bench: REST API throughput through both doors (ARCHITECTURE.md, "One process, two doors"),
// the cost of bearer authentication, and EIP-191 signature recovery. Writes docs/benchmarks.md.
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { recoverMessageAddress, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { recoverSigner, signatureBackend } from '../server/auth/verify-signature';
import {
  ensureBuild,
  formatInt,
  formatMs,
  formatWholeMs,
  freePort,
  makeTempDir,
  measure,
  median,
  note,
  removeDir,
  startServer,
  stopLoad,
  stopServer,
  table,
  waitForHealthy,
  type LoadResult,
  type ServerHandle,
} from './lib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPORT = path.join(ROOT, 'docs', 'benchmarks.md');

const CONNECTIONS = 50;
const DURATION_S = 8;
const WARMUP_S = 2;
const SIGNATURES = 2_000;
const HEALTH = '/api/v1/health';
const AUTHENTICATED = '/api/list-api-keys';

const TARGET_DOOR_RATIO = 10;
const TARGET_AUTH_MS = 1;

const SERVER_ENV = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  RATE_LIMIT_AUTH: '100000/1m',
  ALLOW_PRIVATE_URLS: 'true',
};

// Everything started here, so that any exit path can stop and remove it.
const servers: ServerHandle[] = [];
const tempDirs: string[] = [];

async function launch(name: string, args: (port: number) => string[]): Promise<{ server: ServerHandle; readyMs: number }> {
  const port = await freePort();
  const dataDir = await makeTempDir(name);
  tempDirs.push(dataDir);
  note(`starting ${name} on port ${port}`);
  const server = startServer({
    name,
    args: args(port),
    port,
    cwd: ROOT,
    env: { ...SERVER_ENV, PORT: String(port), DATA_DIR: dataDir },
  });
  servers.push(server);
  const readyMs = await waitForHealthy(server, HEALTH);
  note(`${name} healthy after ${(readyMs / 1000).toFixed(1)} s`);
  return { server, readyMs };
}

function load(
  title: string,
  url: string,
  {
    connections = CONNECTIONS,
    headers,
    expectStatus,
  }: { connections?: number; headers?: Record<string, string>; expectStatus?: number } = {},
): Promise<LoadResult> {
  note(`load: ${title} (${connections} connection${connections === 1 ? '' : 's'}, ${WARMUP_S} s warm-up + ${DURATION_S} s)`);
  return measure({ title, url, headers, connections, expectStatus, duration: DURATION_S, warmup: WARMUP_S });
}

async function postJson<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${url}: HTTP ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** Signs in a fresh wallet through challenge and verify; returns the bearer token. */
async function signIn(baseUrl: string): Promise<string> {
  const account = privateKeyToAccount(generatePrivateKey());
  const { challenge, challenge_id } = await postJson<{ challenge: string; challenge_id: string }>(
    `${baseUrl}/api/v1/auth/challenge`,
    { owner_wallet: account.address, agent_pubkey: 'bench' },
  );
  const signature = await account.signMessage({ message: challenge });
  const { token } = await postJson<{ token: string }>(`${baseUrl}/api/v1/auth/verify`, { challenge_id, signature });
  const check = await fetch(`${baseUrl}${AUTHENTICATED}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(30_000),
  });
  const checkBody = await check.text();
  if (check.status !== 200) throw new Error(`GET ${AUTHENTICATED} with the new token: HTTP ${check.status} ${checkBody}`);
  return token;
}

interface AuthResults {
  health: LoadResult;
  authed: LoadResult;
  healthSingle: LoadResult;
  authedSingle: LoadResult;
  unknownToken: LoadResult;
  noCredentials: LoadResult;
}

async function benchAuth(baseUrl: string): Promise<AuthResults> {
  note('signing in a fresh wallet on the fast door');
  const bearer = { authorization: `Bearer ${await signIn(baseUrl)}` };
  const healthUrl = `${baseUrl}${HEALTH}`;
  const authedUrl = `${baseUrl}${AUTHENTICATED}`;
  return {
    health: await load(`GET ${HEALTH}`, healthUrl),
    authed: await load(`GET ${AUTHENTICATED} (bearer)`, authedUrl, { headers: bearer }),
    healthSingle: await load(`GET ${HEALTH}`, healthUrl, { connections: 1 }),
    authedSingle: await load(`GET ${AUTHENTICATED} (bearer)`, authedUrl, { connections: 1, headers: bearer }),
    unknownToken: await load(`GET ${AUTHENTICATED} (unknown token)`, authedUrl, {
      connections: 1,
      headers: { authorization: `Bearer vouchsafe-bench-unknown-token` },
      expectStatus: 401,
    }),
    noCredentials: await load(`GET ${AUTHENTICATED} (no credentials)`, authedUrl, { connections: 1, expectStatus: 401 }),
  };
}

interface SignatureResult {
  label: string;
  opsPerSec: number;
  medianUs: number;
}

type Recover = (message: string, signature: Hex) => Promise<Address | null>;

async function timeRecovery(
  label: string,
  recover: Recover,
  samples: { message: string; signature: Hex }[],
  signer: Address,
): Promise<SignatureResult> {
  for (const sample of samples.slice(0, 50)) await recover(sample.message, sample.signature); // warm-up
  const durations: number[] = [];
  const started = performance.now();
  for (const { message, signature } of samples) {
    const t0 = performance.now();
    const recovered = await recover(message, signature);
    durations.push(performance.now() - t0);
    if (recovered !== signer) throw new Error(`${label}: recovered ${recovered}, expected ${signer}`);
  }
  const elapsedMs = performance.now() - started;
  return { label, opsPerSec: (samples.length / elapsedMs) * 1000, medianUs: median(durations) * 1000 };
}

async function benchSignatures(): Promise<SignatureResult[]> {
  note(`signatures: signing ${SIGNATURES} messages`);
  const account = privateKeyToAccount(generatePrivateKey());
  const timestamp = Math.floor(Date.now() / 1000);
  const samples: { message: string; signature: Hex }[] = [];
  for (let i = 0; i < SIGNATURES; i++) {
    const message = `List API keys bench-${i} ${timestamp}`;
    samples.push({ message, signature: await account.signMessage({ message }) });
  }
  note(`signatures: recovering with recoverSigner (${signatureBackend}) and viem`);
  return [
    await timeRecovery(
      `recoverSigner (${signatureBackend === 'native' ? 'native libsecp256k1 addon' : 'native addon NOT loaded: JS fallback'})`,
      recoverSigner,
      samples,
      account.address,
    ),
    await timeRecovery(
      'viem recoverMessageAddress (pure JS, @noble/curves)',
      (message, signature) => recoverMessageAddress({ message, signature }),
      samples,
      account.address,
    ),
  ];
}

const LOAD_HEADER = ['request', 'connections', 'req/s', 'p50', 'p99', 'p50 (exact)', 'responses', 'failed'];

function loadRow(label: string, result: LoadResult): string[] {
  return [
    label,
    String(result.connections),
    formatInt(result.requestsPerSec),
    formatWholeMs(result.p50),
    formatWholeMs(result.p99),
    formatMs(result.exactP50),
    formatInt(result.total),
    String(result.failures),
  ];
}

interface Report {
  /** os.loadavg()[0] at the start, to judge how quiet the machine was. */
  loadAverage: number;
  fast: LoadResult;
  fastReadyMs: number;
  nextRoute: LoadResult;
  nextReadyMs: number;
  auth: AuthResults;
  signatures: SignatureResult[];
}

function render(report: Report, startedAt: Date): string {
  const { auth } = report;
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const ratio = report.fast.requestsPerSec / report.nextRoute.requestsPerSec;
  const authMs = auth.authed.exactP50 - auth.health.exactP50;
  const authSingleMs = auth.authedSingle.exactP50 - auth.healthSingle.exactP50;
  const lookupMs = auth.unknownToken.exactP50 - auth.noCredentials.exactP50;
  const [native, js] = report.signatures;
  const speedup = native && js ? native.opsPerSec / js.opsPerSec : Number.NaN;

  const doorTable = table(
    ['door', 'GET /api/v1/health through', ...LOAD_HEADER.slice(1), 'healthy after start'],
    [
      [
        'fast door',
        '`server.ts` (node:http) → Hono fetch handler',
        ...loadRow('', report.fast).slice(1),
        `${(report.fastReadyMs / 1000).toFixed(1)} s`,
      ],
      [
        'Next route',
        '`next start` → `app/api/[...path]/route.ts`',
        ...loadRow('', report.nextRoute).slice(1),
        `${(report.nextReadyMs / 1000).toFixed(1)} s`,
      ],
    ],
  );
  const authTable = table(LOAD_HEADER, [
    loadRow(`\`GET ${HEALTH}\`, no credentials`, auth.health),
    loadRow(`\`GET ${AUTHENTICATED}\`, bearer token`, auth.authed),
    loadRow(`\`GET ${HEALTH}\`, no credentials`, auth.healthSingle),
    loadRow(`\`GET ${AUTHENTICATED}\`, bearer token`, auth.authedSingle),
    loadRow(`\`GET ${AUTHENTICATED}\`, unknown bearer token (401 after the token lookup)`, auth.unknownToken),
    loadRow(`\`GET ${AUTHENTICATED}\`, no credentials (401 before any lookup)`, auth.noCredentials),
  ]);
  const signatureTable = table(
    ['implementation', 'ops/s', 'median per op'],
    report.signatures.map((s) => [s.label, formatInt(s.opsPerSec), `${s.medianUs.toFixed(1)} µs`]),
  );

  const doorVerdict =
    ratio >= TARGET_DOOR_RATIO
      ? `Target met: the fast door answers ${ratio.toFixed(1)}x the Next route's throughput (target >= ${TARGET_DOOR_RATIO}x).`
      : `Target missed: the fast door answers only ${ratio.toFixed(1)}x the Next route's throughput (target >= ${TARGET_DOOR_RATIO}x).`;
  const authVerdict =
    authMs < TARGET_AUTH_MS
      ? `Target met: authentication adds ${formatMs(authMs)} at p50 with ${CONNECTIONS} connections (target < ${TARGET_AUTH_MS} ms).`
      : `Target missed: authentication adds ${formatMs(authMs)} at p50 with ${CONNECTIONS} connections (target < ${TARGET_AUTH_MS} ms).`;

  return `# Vouchsafe benchmarks

Generated by \`npm run bench\` (\`bench/run.ts\`); every figure below comes from one run.

- Date: ${startedAt.toISOString()}
- Machine: ${cpu}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, Node ${process.version}, ${os.platform()} ${os.release()}
- Load average (1 min) when the run started: ${report.loadAverage.toFixed(2)}; other work on the machine makes the figures noisier.
- Method: autocannon 8 inside the benchmark process on the same machine (client and server share the cores),
  ${CONNECTIONS} connections unless stated, a ${WARMUP_S} s warm-up run that is discarded, then ${DURATION_S} s measured;
  one server under load at a time. Servers run with \`NODE_ENV=production\`, \`LOG_LEVEL=silent\`, embedded PGlite in a
  fresh \`DATA_DIR\` each, \`RATE_LIMIT_AUTH=100000/1m\`, \`ALLOW_PRIVATE_URLS=true\`.
- Columns: req/s is autocannon's \`requests.average\`; p50 and p99 are autocannon's \`latency.p50\`/\`latency.p99\`, which
  its histogram keeps in whole milliseconds (2xx responses only); p50 (exact) is the median of every measured response's
  own duration, to a microsecond.

## REST API: fast door vs Next route

${doorTable}

Throughput ratio fast door / Next route: **${ratio.toFixed(1)}x**.

${doorVerdict}

## Authentication overhead (fast door)

A fresh wallet signs in (\`POST /api/v1/auth/challenge\`, \`personal_sign\`, \`POST /api/v1/auth/verify\`), then its bearer
token calls \`GET ${AUTHENTICATED}\`, measured next to the unauthenticated health check. The authenticated request also
runs the handler's own query (the wallet's keys), so its difference to health is an upper bound for authentication alone;
the two 401 rows isolate the token lookup.

${authTable}

- Difference at p50 (exact), bearer request minus health: **${formatMs(authMs)}** with ${CONNECTIONS} connections (includes
  queueing behind the slower request), **${formatMs(authSingleMs)}** with 1 connection.
- Token lookup alone at p50 (exact), 1 connection (unknown token minus no credentials): **${formatMs(lookupMs)}**.

${authVerdict}

## Signature verification (in-process, no server)

Recovering the signer of ${formatInt(SIGNATURES)} distinct EIP-191 (\`personal_sign\`) signatures one after the other,
each checked against the signing address; \`signatureBackend\` of \`server/auth/verify-signature.ts\` was
\`${signatureBackend}\`. Native / JS throughput: **${speedup.toFixed(1)}x**.

${signatureTable}

<!-- more sections are appended by later benchmarks -->
`;
}

let cleaning: Promise<void> | null = null;

/** Stops the servers and removes the temp dirs; every caller waits for the same single pass. */
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    await Promise.all(servers.map((server) => stopServer(server)));
    await Promise.all(tempDirs.map((dir) => removeDir(dir)));
  })();
  return cleaning;
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const loadAverage = os.loadavg()[0]!;
  ensureBuild(ROOT);

  const signatures = await benchSignatures();

  const { server: fastServer, readyMs: fastReadyMs } = await launch('fast-door', () => ['--import', 'tsx', 'server.ts']);
  const { server: nextServer, readyMs: nextReadyMs } = await launch('next-route', (port) => [
    'node_modules/next/dist/bin/next',
    'start',
    '-p',
    String(port),
  ]);

  const fast = await load(`fast door GET ${HEALTH}`, `${fastServer.baseUrl}${HEALTH}`);
  const nextRoute = await load(`Next route GET ${HEALTH}`, `${nextServer.baseUrl}${HEALTH}`);
  // Its part is done: stop it now so that it cannot disturb the remaining runs.
  await stopServer(nextServer);

  const auth = await benchAuth(fastServer.baseUrl);

  const report = render({ loadAverage, fast, fastReadyMs, nextRoute, nextReadyMs, auth, signatures }, startedAt);
  // Formatted as `npm run format:check` expects, so a fresh report passes it.
  const markdown = await prettier.format(report, { ...(await prettier.resolveConfig(REPORT)), filepath: REPORT });
  await writeFile(REPORT, markdown);
  process.stdout.write(markdown);
  note(`wrote ${path.relative(ROOT, REPORT)}`);
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    note(`${signal}: stopping servers`);
    stopLoad();
    void cleanup().finally(() => process.exit(130));
  });
}

try {
  await main();
  await cleanup();
  process.exit(0);
} catch (error) {
  // After an interruption the failed load run is only a consequence; the signal handler exits.
  if (!interrupted) console.error(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  await cleanup();
  process.exit(interrupted ? 130 : 1);
}
