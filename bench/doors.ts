// Both doors on the same endpoints (issue 9): `server.ts` sends /api paths straight to the Hono
// REST handler (the fast door); `next start` serves the same handler through
// app/api/[...path]/route.ts. Each endpoint is loaded through one door, then the other, one server
// under load at a time; throughput, p50/p99 and the ratio per endpoint. Part of `npm run bench`
// (bench/run.ts starts both servers and passes their URLs).
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { formatInt, formatMs, formatWholeMs, measure, note, table, type LoadResult } from './lib';

export interface DoorEndpoint {
  label: string;
  path: string;
  /** Which credential the request carries. */
  auth: 'none' | 'bearer';
}

export const DOOR_ENDPOINTS: DoorEndpoint[] = [
  { label: '`GET /api/v1/health`, no credentials', path: '/api/v1/health', auth: 'none' },
  { label: '`GET /api/agents?limit=20` (public list, database read)', path: '/api/agents?limit=20', auth: 'none' },
  {
    label: '`GET /api/v1/credits`, `Authorization: Bearer` (token check + balance read)',
    path: '/api/v1/credits',
    auth: 'bearer',
  },
];

/** Agents signed in on each server before the runs, so the list has rows to present. */
const AGENTS = 12;

export interface DoorRow {
  endpoint: DoorEndpoint;
  fast: LoadResult;
  next: LoadResult;
  /** fast door req/s / Next route req/s */
  ratio: number;
}

export interface DoorResults {
  rows: DoorRow[];
  connections: number;
  duration: number;
  warmup: number;
  agentsListed: number;
}

async function post(url: string, body: unknown): Promise<any> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${url}: HTTP ${response.status} ${text}`);
  return JSON.parse(text);
}

/** Signs in a fresh wallet (challenge, personal_sign, verify) through the given door and registers its agent; its bearer token. */
async function signIn(baseUrl: string, agentPubkey: string): Promise<string> {
  const account = privateKeyToAccount(generatePrivateKey());
  const { challenge, challenge_id } = await post(`${baseUrl}/api/v1/auth/challenge`, {
    owner_wallet: account.address,
    agent_pubkey: agentPubkey,
    agent_name: `Door bench ${agentPubkey}`,
  });
  const signature = await account.signMessage({ message: challenge });
  const verified = await post(`${baseUrl}/api/v1/auth/verify`, { challenge_id, signature });
  if (typeof verified.token !== 'string') throw new Error(`verify returned no token: ${JSON.stringify(verified)}`);
  const created = await fetch(`${baseUrl}/api/v1/agents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${verified.token}` },
    body: JSON.stringify({ agent_name: `Door bench ${agentPubkey}` }),
    signal: AbortSignal.timeout(30_000),
  });
  if (created.status !== 201) throw new Error(`POST /api/v1/agents: HTTP ${created.status} ${await created.text()}`);
  return verified.token as string;
}

async function check(url: string, headers: Record<string, string>): Promise<any> {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(30_000) });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${url}: HTTP ${response.status} ${text}`);
  return JSON.parse(text);
}

export async function benchDoors(
  fastUrl: string,
  nextUrl: string,
  settings: { connections: number; duration: number; warmup: number },
): Promise<DoorResults> {
  const doors = { fast: fastUrl, next: nextUrl };
  const tokens: Record<keyof typeof doors, string> = { fast: '', next: '' };
  let agentsListed = Number.POSITIVE_INFINITY;
  for (const door of ['fast', 'next'] as const) {
    note(`doors: signing in ${AGENTS} wallets through the ${door === 'fast' ? 'fast door' : 'Next route'}`);
    for (let i = 0; i < AGENTS; i++) tokens[door] = await signIn(doors[door], `bench-door-${i}`);
    // The same answers through both doors before anything is timed.
    const listed = await check(`${doors[door]}/api/agents?limit=20`, {});
    agentsListed = Math.min(agentsListed, listed.agents.length);
    if (listed.agents.length < AGENTS)
      throw new Error(`GET /api/agents listed ${listed.agents.length} agents, expected ${AGENTS}`);
    const credits = await check(`${doors[door]}/api/v1/credits`, { authorization: `Bearer ${tokens[door]}` });
    if (typeof credits.balance_claw !== 'number') throw new Error(`GET /api/v1/credits answered ${JSON.stringify(credits)}`);
  }
  const rows: DoorRow[] = [];
  for (const endpoint of DOOR_ENDPOINTS) {
    const results = {} as Record<keyof typeof doors, LoadResult>;
    for (const door of ['fast', 'next'] as const) {
      const title = `${door === 'fast' ? 'fast door' : 'Next route'} GET ${endpoint.path}`;
      note(`load: ${title} (${settings.connections} connections, ${settings.warmup} s warm-up + ${settings.duration} s)`);
      results[door] = await measure({
        title,
        url: `${doors[door]}${endpoint.path}`,
        connections: settings.connections,
        duration: settings.duration,
        warmup: settings.warmup,
        headers: endpoint.auth === 'bearer' ? { authorization: `Bearer ${tokens[door]}` } : undefined,
      });
    }
    rows.push({ endpoint, ...results, ratio: results.fast.requestsPerSec / results.next.requestsPerSec });
  }
  return { rows, ...settings, agentsListed };
}

/** Figures of the previous report, and this run's, for the "did not get worse" comparison. */
export interface HeadlineFigures {
  fastHealthRps: number;
  fastHealthP50Ms: number;
  nextHealthRps: number;
  authBearerMs: number;
  authApiKeyMs: number;
  signatureSpeedup: number;
  routerSingleMs: number;
  ledgerSpendsPerSec: number;
  paidInvocationsPerSec: number;
}

/** docs/benchmarks.md as generated on 2026-11-21T12:08Z (same machine), before this section existed. */
export const PREVIOUS_FIGURES: HeadlineFigures & { date: string; loadAverage: string } = {
  date: '2026-11-21T12:08Z',
  loadAverage: '1.29, 1.52, 1.55',
  fastHealthRps: 26_180,
  fastHealthP50Ms: 1.81,
  nextHealthRps: 1_389,
  authBearerMs: 0.038,
  authApiKeyMs: 0.018,
  signatureSpeedup: 22.5,
  routerSingleMs: 2.02,
  ledgerSpendsPerSec: 750,
  paidInvocationsPerSec: 195,
};

export function renderDoorsSection(results: DoorResults, current: HeadlineFigures & { loadAverage: number[] }): string {
  const header = ['endpoint', 'door', 'req/s', 'p50', 'p99', 'p50 (exact)', 'p99 (exact)', 'responses', 'failed'];
  const row = (label: string, door: string, r: LoadResult) => [
    label,
    door,
    formatInt(r.requestsPerSec),
    formatWholeMs(r.p50),
    formatWholeMs(r.p99),
    formatMs(r.exactP50),
    formatMs(r.exactP99),
    formatInt(r.total),
    String(r.failures),
  ];
  const loadTable = table(
    header,
    results.rows.flatMap((r) => [row(r.endpoint.label, 'fast door', r.fast), row('', 'Next route', r.next)]),
  );
  const ratioTable = table(
    ['endpoint', 'req/s fast / Next', 'p50 (exact) Next / fast', 'p99 (exact) Next / fast'],
    results.rows.map((r) => [
      r.endpoint.label,
      `**${r.ratio.toFixed(1)}x**`,
      `${(r.next.exactP50 / r.fast.exactP50).toFixed(1)}x`,
      `${(r.next.exactP99 / r.fast.exactP99).toFixed(1)}x`,
    ]),
  );
  const p = PREVIOUS_FIGURES;
  // higher is better for every figure except latencies and added costs
  const compare = (label: string, before: number, after: number, unit: string, lowerIsBetter = false, digits = 0) => {
    const change = before === 0 ? 0 : ((after - before) / before) * 100;
    const worse = lowerIsBetter ? after > before : after < before;
    const fmt = (v: number) => (digits === 0 ? formatInt(v) : v.toFixed(digits)) + unit;
    return [label, fmt(before), fmt(after), `${change >= 0 ? '+' : ''}${change.toFixed(0)}%${worse ? ' (worse)' : ''}`];
  };
  const comparison = table(
    ['figure', `before (${p.date})`, 'this run', 'change'],
    [
      compare('fast door `GET /api/v1/health`, 50 connections', p.fastHealthRps, current.fastHealthRps, ' req/s'),
      compare('fast door `GET /api/v1/health` p50 (exact)', p.fastHealthP50Ms, current.fastHealthP50Ms, ' ms', true, 2),
      compare('Next route `GET /api/v1/health`, 50 connections', p.nextHealthRps, current.nextHealthRps, ' req/s'),
      compare('authentication added at p50, bearer, 1 connection', p.authBearerMs, current.authBearerMs, ' ms', true, 3),
      compare('authentication added at p50, `X-Api-Key`, 1 connection', p.authApiKeyMs, current.authApiKeyMs, ' ms', true, 3),
      compare('signature recovery, native / JS', p.signatureSpeedup, current.signatureSpeedup, 'x', false, 1),
      compare('router added at p50, 1 connection', p.routerSingleMs, current.routerSingleMs, ' ms', true, 2),
      compare('ledger spends/s on one account', p.ledgerSpendsPerSec, current.ledgerSpendsPerSec, ''),
      compare('paid invocations/s, 20 connections', p.paidInvocationsPerSec, current.paidInvocationsPerSec, ''),
    ],
  );
  const minRatio = Math.min(...results.rows.map((r) => r.ratio));
  return `## REST API: both doors on the same endpoints

\`bench/doors.ts\`: the fast door (\`server.ts\`, node:http → Hono fetch handler) and the Next route (\`next start\` →
\`app/api/[...path]/route.ts\`, the same Hono app inside Next's route handler) answer the same three requests: the health
check (no database), the public agent list (one database page of ${results.agentsListed} agents, each presented) and an
authenticated read (bearer token resolved, then the wallet's balance). ${AGENTS} wallets sign in through each door first;
each server has its own fresh embedded database. ${results.connections} connections, ${results.warmup} s warm-up discarded,
${results.duration} s measured; one door under load at a time, the other idle.

${loadTable}

${ratioTable}

The fast door answers every endpoint at least **${minRatio.toFixed(1)}x** the Next route's throughput. The gap is Next's
own request handling (its router, the \`Request\`/\`Response\` adapters and the route handler's wrapper around the same app);
it shrinks in relative terms as the endpoint's own work (database reads) grows.

### Earlier figures: before and after

Headline figures of this run next to the report generated on ${p.date} on the same machine (load average then
${p.loadAverage}; this run started at ${current.loadAverage.map((v) => v.toFixed(2)).join(', ')}). The machine is shared
with other engineers' builds and tests: differences between runs at different load are load, not code; only the ratios
inside one run (the tables above) compare like with like.

${comparison}
`;
}
