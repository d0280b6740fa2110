// npm run bench: REST API throughput through both doors (ARCHITECTURE.md, "One process, two doors"),
// the cost of authentication, EIP-191 signature recovery, the invoke router's overhead, and
// spends per second on one hot account with exact accounting. Writes docs/benchmarks.md.
import { readFile, writeFile } from 'node:fs/promises';
import { benchAnalyzer, renderAnalyzerSection } from './analyzer';
import { benchDoors, renderDoorsSection } from './doors';
import { benchLedgerSpends, type LedgerSpendResults } from './ledger-spends';
import { benchMarket, renderMarket } from './market';
import { benchEvents, renderEventsSection } from './events-section';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { recoverMessageAddress, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { recoverSigner, signatureBackend } from '../server/signatures/verify-signature';
import {
  buildProduction,
  formatInt,
  formatMs,
  formatWholeMs,
  freePort,
  makeTempDir,
  measure,
  median,
  note,
  removeDir,
  markedSection,
  MARKED_SECTIONS,
  startEchoServer,
  startServer,
  stopLoad,
  stopServer,
  table,
  waitForHealthy,
  type EchoServer,
  type LoadResult,
  type ServerHandle,
} from './lib';
import { SERVER_NODE_ARGS } from '../scripts/server-env.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPORT = path.join(ROOT, 'docs', 'benchmarks.md');

const CONNECTIONS = 50;
const ROUTER_CONNECTIONS = 10;
const SPEND_CONNECTIONS = 20;
const DURATION_S = 8;
const WARMUP_S = 2;
const OVERDRAFT_S = 3;
const SIGNATURES = 2_000;
const HEALTH = '/api/v1/health';
const SESSION = '/api/v1/auth/session';
const CREDITS = '/api/v1/credits';
const INVOKE_BODY = JSON.stringify({ ping: 1 });

// Prices in micro-CLAW (1 CLAW = 1,000,000), as the ledger keeps them.
const MICRO = 1_000_000;
const WELCOME_MICRO = 100 * MICRO;
const SPEND_PRICE_MICRO = 1;
const OVERDRAFT_PRICE_MICRO = 30 * MICRO;

const TARGET_DOOR_RATIO = 10;
const TARGET_AUTH_MS = 1;
const TARGET_ROUTER_MS = 5;
const TARGET_SPENDS_PER_S = 500;

const SERVER_ENV = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  RATE_LIMIT_AUTH: '100000/1m',
  RATE_LIMIT_BOOTSTRAP: '100/1m',
  ALLOW_PRIVATE_URLS: 'true',
};

// Everything started here, so that any exit path can stop and remove it.
const servers: ServerHandle[] = [];
const tempDirs: string[] = [];
let echo: EchoServer | null = null;

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

interface LoadSettings {
  connections?: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  expectStatus?: number;
  duration?: number;
  warmup?: number;
  allowFailures?: boolean;
}

function load(title: string, url: string, settings: LoadSettings = {}): Promise<LoadResult> {
  const { connections = CONNECTIONS, duration = DURATION_S, warmup = WARMUP_S } = settings;
  note(
    `load: ${title} (${connections} connection${connections === 1 ? '' : 's'}, ` +
      `${warmup > 0 ? `${warmup} s warm-up + ` : ''}${duration} s)`,
  );
  return measure({ ...settings, title, url, connections, duration, warmup });
}

interface Sent {
  status: number;
  text: string;
  json: any;
}

async function send(method: string, url: string, { body, token }: { body?: unknown; token?: string } = {}): Promise<Sent> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON: callers report `text`.
  }
  return { status: response.status, text, json };
}

/** Sends a request and fails unless it answers `expected` (or any 2xx). */
async function call(
  method: string,
  url: string,
  options: { body?: unknown; token?: string; expected?: number } = {},
): Promise<any> {
  const sent = await send(method, url, options);
  const ok = options.expected === undefined ? sent.status >= 200 && sent.status < 300 : sent.status === options.expected;
  if (!ok) throw new Error(`${method} ${url}: HTTP ${sent.status} ${sent.text}`);
  return sent.json;
}

interface Session {
  wallet: Address;
  token: string;
  /** The ck_ key of the wallet and agent_pubkey's first verify. */
  apiKey: string;
}

/** Signs in a fresh wallet through challenge and verify. */
async function signIn(baseUrl: string, agentPubkey: string): Promise<Session> {
  const account = privateKeyToAccount(generatePrivateKey());
  const { challenge, challenge_id } = await call('POST', `${baseUrl}/api/v1/auth/challenge`, {
    body: { owner_wallet: account.address, agent_pubkey: agentPubkey },
  });
  const signature = await account.signMessage({ message: challenge });
  const verified = await call('POST', `${baseUrl}/api/v1/auth/verify`, { body: { challenge_id, signature } });
  if (typeof verified.token !== 'string') throw new Error(`verify returned no token: ${JSON.stringify(verified)}`);
  if (typeof verified.api_key !== 'string' || !verified.api_key.startsWith('ck_')) {
    throw new Error(`the first verify returned no ck_ api_key: ${JSON.stringify(verified)}`);
  }
  return { wallet: account.address, token: verified.token, apiKey: verified.api_key };
}

/** GET /api/v1/auth/session with the given headers must name the wallet and the credential kind. */
async function checkSession(baseUrl: string, headers: Record<string, string>, wallet: Address, via: string): Promise<void> {
  const response = await fetch(`${baseUrl}${SESSION}`, { headers, signal: AbortSignal.timeout(30_000) });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${SESSION} (${via}): HTTP ${response.status} ${text}`);
  const body = JSON.parse(text) as { wallet_address?: string; via?: string };
  if (body.wallet_address !== wallet || body.via !== via) throw new Error(`GET ${SESSION} (${via}) answered ${text}`);
}

// ---------------------------------------------------------------------------------------------
// Authentication overhead

interface AuthResults {
  healthMany: LoadResult;
  bearerMany: LoadResult;
  apiKeyMany: LoadResult;
  health: LoadResult;
  bearer: LoadResult;
  apiKey: LoadResult;
  unknownToken: LoadResult;
  noCredentials: LoadResult;
}

async function benchAuth(baseUrl: string): Promise<AuthResults> {
  note('auth: signing in a fresh wallet');
  const session = await signIn(baseUrl, 'bench-auth');
  const bearer = { authorization: `Bearer ${session.token}` };
  const apiKey = { 'x-api-key': session.apiKey };
  await checkSession(baseUrl, bearer, session.wallet, 'bearer');
  await checkSession(baseUrl, apiKey, session.wallet, 'api_key');
  const healthUrl = `${baseUrl}${HEALTH}`;
  const sessionUrl = `${baseUrl}${SESSION}`;
  return {
    // One connection first: these decide the target.
    health: await load(`GET ${HEALTH}`, healthUrl, { connections: 1 }),
    bearer: await load(`GET ${SESSION} (bearer)`, sessionUrl, { connections: 1, headers: bearer }),
    apiKey: await load(`GET ${SESSION} (X-Api-Key)`, sessionUrl, { connections: 1, headers: apiKey }),
    unknownToken: await load(`GET ${SESSION} (unknown token)`, sessionUrl, {
      connections: 1,
      headers: { authorization: 'Bearer vouchsafe-bench-unknown-token' },
      expectStatus: 401,
    }),
    noCredentials: await load(`GET ${SESSION} (no credentials)`, sessionUrl, { connections: 1, expectStatus: 401 }),
    healthMany: await load(`GET ${HEALTH}`, healthUrl),
    bearerMany: await load(`GET ${SESSION} (bearer)`, sessionUrl, { headers: bearer }),
    apiKeyMany: await load(`GET ${SESSION} (X-Api-Key)`, sessionUrl, { headers: apiKey }),
  };
}

// ---------------------------------------------------------------------------------------------
// Router overhead, spends per second, overdraft

interface RouterSetup {
  targetId: string;
  owner: Session;
  caller: Session;
}

async function setUpRouter(baseUrl: string, echoServer: EchoServer): Promise<RouterSetup> {
  note('router: wallet A creates the echo target agent');
  const owner = await signIn(baseUrl, 'bench-echo');
  const created = await call('POST', `${baseUrl}/api/v1/agents`, {
    token: owner.token,
    body: { agent_name: 'Echo target' },
    expected: 201,
  });
  const targetId = created.agent_id as string;
  if (typeof targetId !== 'string') throw new Error(`POST /api/v1/agents returned no agent_id: ${JSON.stringify(created)}`);
  await call('PATCH', `${baseUrl}/api/v1/agents/${targetId}`, {
    token: owner.token,
    body: { is_callable: true, invoke_url: `${echoServer.baseUrl}/echo`, price_claw_per_call: 0 },
  });
  note('router: wallet B signs in and bootstraps (100 CLAW)');
  const caller = await signIn(baseUrl, 'bench-caller');
  const bootstrapped = await call('POST', `${baseUrl}/api/v1/agents/bootstrap`, { token: caller.token, body: {} });
  if (bootstrapped.welcome_claw !== 100) throw new Error(`bootstrap of B: ${JSON.stringify(bootstrapped)}`);
  return { targetId, owner, caller };
}

async function retarget(baseUrl: string, setup: RouterSetup, echoPath: string, priceMicro: number): Promise<void> {
  const price = priceMicro / MICRO;
  const agent = await call('PATCH', `${baseUrl}/api/v1/agents/${setup.targetId}`, {
    token: setup.owner.token,
    body: { invoke_url: `${echo!.baseUrl}${echoPath}`, price_claw_per_call: price },
  });
  if (agent.price_claw_per_call !== price || !String(agent.invoke_url).endsWith(echoPath)) {
    throw new Error(`PATCH of the echo target answered ${JSON.stringify(agent)}`);
  }
}

function invokeUrl(baseUrl: string, setup: RouterSetup): string {
  return `${baseUrl}/api/v1/agents/${setup.targetId}/invoke`;
}

function invokeHeaders(token: string): Record<string, string> {
  return { 'content-type': 'application/json', authorization: `Bearer ${token}` };
}

/** One manual invocation; its status and body, for checks and error reports. */
function invokeOnce(baseUrl: string, setup: RouterSetup, token: string): Promise<Sent> {
  return send('POST', invokeUrl(baseUrl, setup), { token, body: { ping: 1 } });
}

interface RouterResults {
  routed: LoadResult;
  direct: LoadResult;
  routedSingle: LoadResult;
  directSingle: LoadResult;
  /** The first error body seen when some invocations were not 2xx. */
  errorBody: string | null;
}

async function benchRouter(baseUrl: string, setup: RouterSetup): Promise<RouterResults> {
  const first = await invokeOnce(baseUrl, setup, setup.caller.token);
  if (first.status !== 200 || first.json?.response?.echo?.ping !== 1) {
    throw new Error(`a manual invocation answered HTTP ${first.status} ${first.text}`);
  }
  const headers = invokeHeaders(setup.caller.token);
  const common = { method: 'POST' as const, body: INVOKE_BODY, allowFailures: true };
  const routedTitle = `POST /api/v1/agents/{id}/invoke → echo`;
  const directTitle = `POST echo directly`;
  const directUrl = `${echo!.baseUrl}/echo`;
  const directHeaders = { 'content-type': 'application/json' };
  const results = {
    routed: await load(routedTitle, invokeUrl(baseUrl, setup), { ...common, headers, connections: ROUTER_CONNECTIONS }),
    direct: await load(directTitle, directUrl, { ...common, headers: directHeaders, connections: ROUTER_CONNECTIONS }),
    routedSingle: await load(routedTitle, invokeUrl(baseUrl, setup), { ...common, headers, connections: 1 }),
    directSingle: await load(directTitle, directUrl, { ...common, headers: directHeaders, connections: 1 }),
  };
  let errorBody: string | null = null;
  if (results.routed.failures + results.routedSingle.failures > 0) {
    const sent = await invokeOnce(baseUrl, setup, setup.caller.token);
    errorBody = `HTTP ${sent.status} ${sent.text}`;
    note(`router: some invocations were not 2xx; a manual one answered ${errorBody}`);
  }
  return { ...results, errorBody };
}

/** Waits until the echo target has seen no new request for a while: in-flight invocations have settled. */
async function settle(echoPath: string): Promise<void> {
  let last = -1;
  while ((await echo!.hits(echoPath)) !== last) {
    last = await echo!.hits(echoPath);
    await sleep(1_000);
  }
}

async function balanceMicro(baseUrl: string, token: string): Promise<{ micro: number; credits: any }> {
  const credits = await call('GET', `${baseUrl}${CREDITS}`, { token });
  if (typeof credits.balance_claw !== 'number') throw new Error(`GET ${CREDITS}: ${JSON.stringify(credits)}`);
  return { micro: Math.round(credits.balance_claw * MICRO), credits };
}

interface SpendResults {
  load: LoadResult;
  /** 2xx invocations counted by the client in the measured run. */
  successes: number;
  /** Invocations the echo target answered, manual check call included (the server's true count). */
  forwarded: number;
  spendsPerSec: number;
  balanceBefore: number;
  balanceAfter: number;
  expectedAfter: number;
  dailySpendClaw: number;
  exact: boolean;
  errorBody: string | null;
}

async function benchSpends(baseUrl: string, setup: RouterSetup): Promise<SpendResults> {
  const echoPath = '/priced';
  await retarget(baseUrl, setup, echoPath, SPEND_PRICE_MICRO);
  const balanceBefore = (await balanceMicro(baseUrl, setup.caller.token)).micro;
  const check = await invokeOnce(baseUrl, setup, setup.caller.token);
  if (check.status !== 200 || check.json?.fee_claw !== SPEND_PRICE_MICRO / MICRO) {
    throw new Error(`a priced invocation answered HTTP ${check.status} ${check.text}`);
  }
  const result = await load(`priced POST /api/v1/agents/{id}/invoke`, invokeUrl(baseUrl, setup), {
    method: 'POST',
    body: INVOKE_BODY,
    headers: invokeHeaders(setup.caller.token),
    connections: SPEND_CONNECTIONS,
    warmup: 0,
    allowFailures: true,
  });
  let errorBody: string | null = null;
  if (result.failures > 0) {
    const sent = await invokeOnce(baseUrl, setup, setup.caller.token);
    errorBody = `HTTP ${sent.status} ${sent.text}`;
    note(`spends: some invocations were not 2xx; a manual one answered ${errorBody}`);
  }
  await settle(echoPath);
  const { micro: balanceAfter, credits } = await balanceMicro(baseUrl, setup.caller.token);
  // Every request the echo target answered (200) was a paid, successful invocation.
  const forwarded = await echo!.hits(echoPath);
  const expectedAfter = balanceBefore - forwarded * SPEND_PRICE_MICRO;
  const successes = [...result.statuses].filter(([status]) => status >= 200 && status < 300).reduce((n, [, c]) => n + c, 0);
  return {
    load: result,
    successes,
    forwarded,
    spendsPerSec: successes / result.seconds,
    balanceBefore,
    balanceAfter,
    expectedAfter,
    dailySpendClaw: credits.daily_spend_claw,
    exact: balanceAfter === expectedAfter && balanceAfter >= 0,
    errorBody,
  };
}

interface OverdraftResults {
  successes: number;
  rejected: number;
  other: number;
  otherStatuses: string;
  forwarded: number;
  finalBalanceMicro: number;
  passed: boolean;
}

async function benchOverdraft(baseUrl: string, setup: RouterSetup): Promise<OverdraftResults> {
  note('overdraft: wallet C signs in and bootstraps (100 CLAW)');
  const broke = await signIn(baseUrl, 'bench-overdraft');
  const bootstrapped = await call('POST', `${baseUrl}/api/v1/agents/bootstrap`, { token: broke.token, body: {} });
  if (bootstrapped.welcome_claw !== 100) throw new Error(`bootstrap of C: ${JSON.stringify(bootstrapped)}`);
  const echoPath = '/expensive';
  await retarget(baseUrl, setup, echoPath, OVERDRAFT_PRICE_MICRO);
  const result = await load(`30 CLAW POST /api/v1/agents/{id}/invoke from 100 CLAW`, invokeUrl(baseUrl, setup), {
    method: 'POST',
    body: INVOKE_BODY,
    headers: invokeHeaders(broke.token),
    connections: SPEND_CONNECTIONS,
    duration: OVERDRAFT_S,
    warmup: 0,
    allowFailures: true,
  });
  await settle(echoPath);
  const { micro } = await balanceMicro(baseUrl, broke.token);
  let successes = 0;
  let rejected = 0;
  const others: string[] = [];
  for (const [status, count] of result.statuses) {
    if (status >= 200 && status < 300) successes += count;
    else if (status === 402) rejected += count;
    else others.push(`${count} × HTTP ${status}`);
  }
  const other = result.total - successes - rejected + result.errors;
  const forwarded = await echo!.hits(echoPath);
  const expectedSuccesses = Math.floor(WELCOME_MICRO / OVERDRAFT_PRICE_MICRO);
  return {
    successes,
    rejected,
    other,
    otherStatuses: others.join(', '),
    forwarded,
    finalBalanceMicro: micro,
    passed:
      successes === expectedSuccesses &&
      forwarded === expectedSuccesses &&
      other === 0 &&
      micro === WELCOME_MICRO - expectedSuccesses * OVERDRAFT_PRICE_MICRO,
  };
}

// ---------------------------------------------------------------------------------------------
// Signatures

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
  note(`signatures: recovering with recoverSigner (${signatureBackend()}) and viem`);
  return [
    await timeRecovery(
      `recoverSigner (${signatureBackend() === 'native' ? 'native libsecp256k1 addon' : 'native addon NOT loaded: JS fallback'})`,
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

// ---------------------------------------------------------------------------------------------
// Report

const LOAD_HEADER = ['request', 'connections', 'req/s', 'p50', 'p99', 'p50 (exact)', 'p99 (exact)', 'responses', 'failed'];

function loadRow(label: string, result: LoadResult): string[] {
  return [
    label,
    String(result.connections),
    formatInt(result.requestsPerSec),
    formatWholeMs(result.p50),
    formatWholeMs(result.p99),
    formatMs(result.exactP50),
    formatMs(result.exactP99),
    formatInt(result.total),
    String(result.failures),
  ];
}

function verdict(met: boolean, text: string): string {
  return `${met ? '**Target met**' : '**Target not met**'}: ${text}`;
}

function claw(micro: number): string {
  return `${(micro / MICRO).toFixed(6)} CLAW`;
}

interface Report {
  /** os.loadavg() at the start, to judge how quiet the machine was. */
  loadAverage: number[];
  buildSeconds: number;
  fast: LoadResult;
  fastReadyMs: number;
  nextRoute: LoadResult;
  nextReadyMs: number;
  auth: AuthResults;
  signatures: SignatureResult[];
  router: RouterResults;
  spends: SpendResults;
  ledger: LedgerSpendResults;
  overdraft: OverdraftResults;
}

function render(report: Report, startedAt: Date): string {
  const { auth, router, spends, overdraft, ledger } = report;
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const ratio = report.fast.requestsPerSec / report.nextRoute.requestsPerSec;
  const bearerMs = auth.bearer.exactP50 - auth.health.exactP50;
  const apiKeyMs = auth.apiKey.exactP50 - auth.health.exactP50;
  const bearerManyMs = auth.bearerMany.exactP50 - auth.healthMany.exactP50;
  const apiKeyManyMs = auth.apiKeyMany.exactP50 - auth.healthMany.exactP50;
  const lookupMs = auth.unknownToken.exactP50 - auth.noCredentials.exactP50;
  const [native, js] = report.signatures;
  const speedup = native && js ? native.opsPerSec / js.opsPerSec : Number.NaN;
  const routerP50 = router.routed.exactP50 - router.direct.exactP50;
  const routerP99 = router.routed.exactP99 - router.direct.exactP99;
  const routerSingleP50 = router.routedSingle.exactP50 - router.directSingle.exactP50;
  const routerFailures = router.routed.failures + router.routedSingle.failures;

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
    loadRow(`\`GET ${SESSION}\`, \`Authorization: Bearer\``, auth.bearer),
    loadRow(`\`GET ${SESSION}\`, \`X-Api-Key: ck_…\``, auth.apiKey),
    loadRow(`\`GET ${SESSION}\`, unknown bearer token (401 after the token lookup)`, auth.unknownToken),
    loadRow(`\`GET ${SESSION}\`, no credentials (401 before any lookup)`, auth.noCredentials),
    loadRow(`\`GET ${HEALTH}\`, no credentials (includes queueing)`, auth.healthMany),
    loadRow(`\`GET ${SESSION}\`, \`Authorization: Bearer\` (includes queueing)`, auth.bearerMany),
    loadRow(`\`GET ${SESSION}\`, \`X-Api-Key: ck_…\` (includes queueing)`, auth.apiKeyMany),
  ]);
  const signatureTable = table(
    ['implementation', 'ops/s', 'median per op'],
    report.signatures.map((s) => [s.label, formatInt(s.opsPerSec), `${s.medianUs.toFixed(1)} µs`]),
  );
  const routerTable = table(LOAD_HEADER, [
    loadRow('`POST /api/v1/agents/{id}/invoke` → echo (router)', router.routed),
    loadRow('`POST /echo` directly', router.direct),
    loadRow('`POST /api/v1/agents/{id}/invoke` → echo (router)', router.routedSingle),
    loadRow('`POST /echo` directly', router.directSingle),
  ]);
  const spendTable = table(
    ['figure', 'value'],
    [
      ['connections, duration', `${SPEND_CONNECTIONS}, ${spends.load.seconds.toFixed(2)} s`],
      ['2xx invocations (client count)', formatInt(spends.successes)],
      ['non-2xx responses, errors, timeouts', String(spends.load.failures)],
      ['**spends per second**', `**${formatInt(spends.spendsPerSec)}**`],
      ['p50 / p99 (exact)', `${formatMs(spends.load.exactP50)} / ${formatMs(spends.load.exactP99)}`],
      [
        'invocations the echo target answered (incl. 1 check call and requests in flight at the end)',
        formatInt(spends.forwarded),
      ],
      ['B balance before', claw(spends.balanceBefore)],
      ['B balance after (`GET /api/v1/credits`)', claw(spends.balanceAfter)],
      ['expected: before − answered × 0.000001', claw(spends.expectedAfter)],
      ['daily_spend_claw after', String(spends.dailySpendClaw)],
    ],
  );

  const doorVerdict = verdict(
    ratio >= TARGET_DOOR_RATIO,
    `the fast door answers ${ratio.toFixed(1)}x the Next route's throughput (target >= ${TARGET_DOOR_RATIO}x).`,
  );
  const authVerdict = verdict(
    bearerMs < TARGET_AUTH_MS && apiKeyMs < TARGET_AUTH_MS,
    `with one connection, authentication adds ${formatMs(bearerMs)} (bearer) and ${formatMs(apiKeyMs)} (\`X-Api-Key\`) ` +
      `to the median (target < ${TARGET_AUTH_MS} ms).`,
  );
  // Judged on one connection, like authentication: the time a call itself pays for the router;
  // the ${ROUTER_CONNECTIONS}-connection figure adds queueing behind other calls on a 2-core machine.
  const routerVerdict = verdict(
    routerSingleP50 < TARGET_ROUTER_MS && routerFailures === 0,
    `with one connection the router adds ${formatMs(routerSingleP50)} at p50 (target < ${TARGET_ROUTER_MS} ms); ` +
      `with ${ROUTER_CONNECTIONS} connections, queueing included, ${formatMs(routerP50)}` +
      (routerFailures === 0 ? '.' : `, but ${routerFailures} invocations were not 2xx.`),
  );
  // The target is the ledger's: spends on one hot account. Paid invocations (two ledger
  // transactions and an HTTP call each) are reported beside it.
  const noOverdraft = spends.exact && overdraft.passed && ledger.exact && ledger.overdraft.passed;
  const spendVerdict = verdict(
    ledger.spendsPerSec >= TARGET_SPENDS_PER_S && noOverdraft,
    `${formatInt(ledger.spendsPerSec)} spends/s on one account at the ledger (target >= ${TARGET_SPENDS_PER_S}); ` +
      `end to end, ${formatInt(spends.spendsPerSec)} paid invocations/s` +
      (spends.load.failures > 0 ? ` with ${spends.load.failures} failed invocations` : '') +
      (noOverdraft
        ? '; zero overdrafts: every balance is exact to the micro-CLAW.'
        : '; accounting FAILED: see the balance figures and the overdraft tests above.'),
  );
  const overdraftLine =
    `overdraft test: ${overdraft.successes} successes, ${overdraft.rejected} 402s` +
    (overdraft.other > 0 ? `, ${overdraft.other} other (${overdraft.otherStatuses || 'connection errors'})` : '') +
    `, final balance ${overdraft.finalBalanceMicro / MICRO}`;

  return `# Vouchsafe benchmarks

Generated by \`npm run bench\` (\`bench/run.ts\`); every figure below comes from one run.

- Date: ${startedAt.toISOString()}
- Machine: ${cpu}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, Node ${process.version}, ${os.platform()} ${os.release()}
- Load average (1, 5, 15 min) when the run started: ${report.loadAverage.map((v) => v.toFixed(2)).join(', ')}; other work on the machine makes the figures noisier.
- Build: a fresh \`next build\` (${report.buildSeconds.toFixed(0)} s) at the start of the run, so the Next route bundles the current server code.
- Method: autocannon 8 inside the benchmark process on the same machine (client and server share the cores),
  ${CONNECTIONS} connections unless stated, a ${WARMUP_S} s warm-up run that is discarded, then ${DURATION_S} s measured;
  one server under load at a time. Servers run with \`NODE_ENV=production\`, \`LOG_LEVEL=silent\`, embedded PGlite in a
  fresh \`DATA_DIR\` each, \`RATE_LIMIT_AUTH=100000/1m\`, \`RATE_LIMIT_BOOTSTRAP=100/1m\`, \`ALLOW_PRIVATE_URLS=true\`.
- Columns: req/s is autocannon's \`requests.average\`; p50 and p99 are autocannon's \`latency.p50\`/\`latency.p99\`, which
  its histogram keeps in whole milliseconds (2xx responses only); p50 (exact) and p99 (exact) come from every measured
  response's own duration, to a microsecond.

## REST API: fast door vs Next route

${doorTable}

Throughput ratio fast door / Next route: **${ratio.toFixed(1)}x**.

${doorVerdict}

## Authentication overhead (fast door)

A fresh wallet signs in (\`POST /api/v1/auth/challenge\`, \`personal_sign\`, \`POST /api/v1/auth/verify\`, which also
returns the wallet's \`ck_\` API key), then calls \`GET ${SESSION}\`, whose handler does no database work (it returns
the resolved caller), next to the unauthenticated health check. The target is judged on one connection, where the median
is the request's own cost; the ${CONNECTIONS}-connection rows include queueing behind other requests.

${authTable}

- Added at p50 (exact), 1 connection: **${formatMs(bearerMs)}** (bearer), **${formatMs(apiKeyMs)}** (\`X-Api-Key\`).
- Added at p50 (exact), ${CONNECTIONS} connections (includes queueing): ${formatMs(bearerManyMs)} (bearer),
  ${formatMs(apiKeyManyMs)} (\`X-Api-Key\`).
- Token lookup alone at p50 (exact), 1 connection (unknown token minus no credentials): ${formatMs(lookupMs)}.

${authVerdict}

## Signature verification (in-process, no server)

Recovering the signer of ${formatInt(SIGNATURES)} distinct EIP-191 (\`personal_sign\`) signatures one after the other,
each checked against the signing address; \`signatureBackend\` of \`server/auth/verify-signature.ts\` was
\`${signatureBackend()}\`. Native / JS throughput: **${speedup.toFixed(1)}x**.

${signatureTable}

## Router overhead (fast door)

A \`node:http\` echo server on 127.0.0.1 in a process of its own (as a real target is) answers 200 with the JSON body echoed. Wallet A owns
an agent whose \`invoke_url\` is the echo server (price 0 CLAW); wallet B (bootstrapped, 100 CLAW) invokes it with
\`POST /api/v1/agents/{id}/invoke\` and body \`{"ping":1}\`, next to the same POST sent to the echo server directly.

${routerTable}

- Added by the router, ${ROUTER_CONNECTIONS} connections: **${formatMs(routerP50)}** at p50, ${formatMs(routerP99)} at p99 (exact
  figures; autocannon's whole-millisecond histogram: ${router.routed.p50 - router.direct.p50} ms at p50, ${router.routed.p99 - router.direct.p99} ms at p99).
- Added by the router, 1 connection: **${formatMs(routerSingleP50)}** at p50 (exact).
${router.errorBody ? `- Some invocations were not 2xx; a manual invocation afterwards answered: \`${router.errorBody}\`\n` : ''}
${routerVerdict}

## Spends per second on one hot account

### At the ledger

${ledger.workers} concurrent workers in one process debit one wallet 1 micro-CLAW at a time through the ledger's \`post()\`
(the statement every paid call uses: balance update under the no-overdraft CHECK, transaction, postings, daily spend) on a
fresh embedded database for ${ledger.seconds.toFixed(2)} s: **${formatInt(ledger.spendsPerSec)} spends/s**
(${formatInt(ledger.successes)} spends). Balance check: ${ledger.exact ? 'exact' : 'FAILED'}. Overdraft: the wallet holds
100 micro-CLAW and ${formatInt(ledger.overdraft.attempts)} spends are attempted concurrently: ${ledger.overdraft.successes} succeed,
${ledger.overdraft.rejected} are refused, final balance ${ledger.overdraft.finalBalance} (${ledger.overdraft.passed ? 'passed' : 'FAILED'}).

### End to end: paid invocations

The echo target is priced at 0.000001 CLAW a call; wallet B invokes it from ${SPEND_CONNECTIONS} connections for
${DURATION_S} s (no warm-up). Every call charges B's account into escrow (atomically, in the database), forwards, then pays
the owner. Spends per second = 2xx invocations / run duration. Afterwards \`GET ${CREDITS}\` must show B's balance lowered by
exactly one price per invocation the echo target answered (compared in micro-CLAW).

${spendTable}
${spends.errorBody ? `\nSome invocations were not 2xx; a manual invocation afterwards answered: \`${spends.errorBody}\`\n` : ''}
Balance check: ${
    spends.exact
      ? 'exact (balance after = before − answered invocations × price, in micro-CLAW).'
      : `FAILED: ${claw(spends.balanceAfter)} instead of ${claw(spends.expectedAfter)}.`
  }

### Overdraft under concurrency

Wallet C (bootstrapped, 100 CLAW) invokes the echo target repriced to 30 CLAW a call from ${SPEND_CONNECTIONS} connections for
${OVERDRAFT_S} s: exactly 3 calls may succeed, every other one must be 402, and C's balance must end at 10 CLAW.

**${overdraftLine}**; the echo target was called ${overdraft.forwarded} times. ${
    overdraft.passed
      ? 'Passed: no overdraft, exact balance.'
      : 'FAILED: expected 3 successes, the rest 402, 3 forwarded calls and a final balance of 10.'
  }

${spendVerdict}
`;
}

// ---------------------------------------------------------------------------------------------

let cleaning: Promise<void> | null = null;

/** Stops the servers and removes the temp dirs; every caller waits for the same single pass. */
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    await Promise.all(servers.map((server) => stopServer(server)));
    await echo?.close();
    await Promise.all(tempDirs.map((dir) => removeDir(dir)));
  })();
  return cleaning;
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const loadAverage = os.loadavg();
  const buildSeconds = buildProduction(ROOT);

  const signatures = await benchSignatures();

  const { server: fastServer, readyMs: fastReadyMs } = await launch('fast-door', () => [...SERVER_NODE_ARGS, 'server.ts']);
  const { server: nextServer, readyMs: nextReadyMs } = await launch('next-route', (port) => [
    'node_modules/next/dist/bin/next',
    'start',
    '-p',
    String(port),
  ]);

  const fast = await load(`fast door GET ${HEALTH}`, `${fastServer.baseUrl}${HEALTH}`);
  const nextRoute = await load(`Next route GET ${HEALTH}`, `${nextServer.baseUrl}${HEALTH}`);
  // Both doors on the same endpoints, public and authenticated (issue 9; bench/doors.ts).
  const doors = await benchDoors(fastServer.baseUrl, nextServer.baseUrl, {
    connections: CONNECTIONS,
    duration: DURATION_S,
    warmup: WARMUP_S,
  });
  // Its part is done: stop it now so that it cannot disturb the remaining runs.
  await stopServer(nextServer);

  const auth = await benchAuth(fastServer.baseUrl);

  echo = await startEchoServer();
  note(`echo target listening on ${echo.baseUrl}`);
  const setup = await setUpRouter(fastServer.baseUrl, echo);
  const router = await benchRouter(fastServer.baseUrl, setup);
  const spends = await benchSpends(fastServer.baseUrl, setup);
  note(
    `spends: ${formatInt(spends.spendsPerSec)}/s, balance ${claw(spends.balanceAfter)} (expected ${claw(spends.expectedAfter)})`,
  );
  const overdraft = await benchOverdraft(fastServer.baseUrl, setup);
  // In-process, with the servers idle: the ledger primitive on one hot account.
  const ledger = await benchLedgerSpends();
  note(`ledger: ${formatInt(ledger.spendsPerSec)} spends/s, exact ${ledger.exact}, overdraft passed ${ledger.overdraft.passed}`);
  note(
    `overdraft test: ${overdraft.successes} successes, ${overdraft.rejected} 402s, final ${overdraft.finalBalanceMicro / MICRO}`,
  );

  // In-process as well: the market's signal resolution and job listing (issue 12).
  const market = await benchMarket();
  note(
    `market: ${market.map((m) => `${m.database} resolve ${m.resolveMs.toFixed(0)} ms, list p50 ${m.listP50Ms.toFixed(2)} ms`).join('; ')}`,
  );

  // In-process on its own anvil devnet: the contract analyzer (cold, cached, RPC calls).
  // A devnet that cannot start or deploy under load costs this section only, not the whole report.
  const analyzer = await benchAnalyzer().catch((error: unknown) => {
    note(`analyzer: failed: ${error instanceof Error ? error.message : String(error)}`);
    return error instanceof Error ? error : new Error(String(error));
  });
  if (!(analyzer instanceof Error)) {
    note(
      `analyzer: cold p50 ${analyzer.coldP50Ms.toFixed(0)} ms, p99 ${analyzer.coldP99Ms.toFixed(0)} ms, cached ${Math.round(analyzer.cachedPerSec)}/s`,
    );
  }

  // Its own server child with 10,000 open streams (issue 10).
  const events = await benchEvents();

  const report =
    render(
      {
        loadAverage,
        buildSeconds,
        fast,
        fastReadyMs,
        nextRoute,
        nextReadyMs,
        auth,
        signatures,
        router,
        spends,
        overdraft,
        ledger,
      },
      startedAt,
    ) +
    '\n' +
    renderDoorsSection(doors, {
      fastHealthRps: fast.requestsPerSec,
      fastHealthP50Ms: fast.exactP50,
      nextHealthRps: nextRoute.requestsPerSec,
      authBearerMs: auth.bearer.exactP50 - auth.health.exactP50,
      authApiKeyMs: auth.apiKey.exactP50 - auth.health.exactP50,
      signatureSpeedup: signatures[0]!.opsPerSec / signatures[1]!.opsPerSec,
      routerSingleMs: router.routedSingle.exactP50 - router.directSingle.exactP50,
      ledgerSpendsPerSec: ledger.spendsPerSec,
      paidInvocationsPerSec: spends.spendsPerSec,
      loadAverage,
    }) +
    '\n' +
    renderMarket(market) +
    '\n' +
    (analyzer instanceof Error
      ? `## Contract analyzer (devnet)\n\nNot measured in this run: ${analyzer.message.split('\n')[0]}\n`
      : renderAnalyzerSection(analyzer)) +
    '\n' +
    renderEventsSection(events);
  // Formatted as `npm run format:check` expects, so a fresh report passes it.
  // `npm run bench -- scale` writes its own section (a seeded database); a full run keeps it.
  // So does `npm run bench -- paid` (bench/paid.ts: paid calls and sign-in, on PostgreSQL too).
  const previous = await readFile(REPORT, 'utf8').catch(() => '');
  const kept = MARKED_SECTIONS.map((name) => markedSection(previous, name)).filter(Boolean);
  const markdown = await prettier.format(kept.length ? `${report.trimEnd()}\n\n${kept.join('\n\n')}\n` : report, {
    ...(await prettier.resolveConfig(REPORT)),
    filepath: REPORT,
  });
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

// `npm run bench -- scale`: the data volume section alone (bench/scale.ts), on a seeded database.
if (process.argv[2] === 'scale') await import('./scale');
// `npm run bench -- paid`: paid calls, the router's added latency and sign-ins (bench/paid.ts; PostgreSQL with DATABASE_URL).
if (process.argv[2] === 'paid') await import('./paid');

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
