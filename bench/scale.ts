// npm run bench -- scale [--preset small|medium|large] [--rounds N] [--seconds S] [--keep] [--schema NAME] [--cold] [--only REGEX] [--data-dir DIR]
// Issue 21's figures: every public read and the authenticated reads on a seeded database, through
// the fast door (`server.ts`, one worker), with autocannon in this process and the server in its own.
// 1. cold: one connection, `rounds` requests per endpoint (each a different agent, page or term; a read
//    whose URLs repeat is sent with a credential, after a change notice where the service keeps a cache of its own,
//    so no cache answers), p50/p99; 2. 50 connections for `seconds` on each endpoint (caches
//    allowed, as a client would see them), req/s; 3. raw node:http answering the health JSON in the same
//    run; 4. the server's RSS after the run. PostgreSQL when DATABASE_URL (or BENCH_DATABASE_URL) is set
//    (a fresh schema, dropped afterwards unless --keep), PGlite otherwise. Writes the "Data volume"
//    section of docs/benchmarks.md. --schema NAME (PostgreSQL) uses that schema: seeded once with the
//    preset if it has no agents, reused as it is otherwise, and kept afterwards, so attempts on a shared
//    machine need not reseed. --cold runs the cold pass only and prints it (docs untouched): the quick
//    before/after loop of a fix.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { buildIsStale } from '../scripts/build-state.mjs';
import { PRESETS, seedDatabase } from '../scripts/seed-data';
import { parsePostgresUrl } from '../server/core/db/open';
import { startRuntime } from '../server/core/runtime';
import {
  buildProduction,
  freePort,
  makeTempDir,
  measure,
  note,
  percentile,
  removeDir,
  startServer,
  stopLoad,
  stopServer,
  table,
  waitForHealthy,
  writeMarkedSection,
  type LoadResult,
  type ServerHandle,
} from './lib';
import { SERVER_NODE_ARGS } from '../scripts/server-env.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPORT = path.join(ROOT, 'docs', 'benchmarks.md');
const HEALTH = '/api/v1/health';
const CONNECTIONS = 50;
const SETTLE_SECONDS = 15;
const TARGETS = { coldP50Ms: 10, pgliteColdP50Ms: 25, publicRps: 3000, authRps: 3000, rssMb: 500 };

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== 'scale'),
  options: {
    preset: { type: 'string', default: 'large' },
    rounds: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '5' },
    keep: { type: 'boolean', default: false },
    schema: { type: 'string' },
    cold: { type: 'boolean', default: false },
    only: { type: 'string' },
    'data-dir': { type: 'string' },
  },
});
const presetName = values.preset as keyof typeof PRESETS;
if (!(presetName in PRESETS)) throw new Error(`--preset must be one of ${Object.keys(PRESETS).join(', ')}`);
const ROUNDS = Number(values.rounds);
const only = values.only === undefined ? null : new RegExp(values.only);
const selected = (label: string) => only === null || only.test(label);
const SECONDS = Number(values.seconds);

const COLD_METHOD = `each a different agent, page or term; a read whose URL repeats (overview graph, leaderboard,
trust filters, stats, smart money, trade tokens) is sent with the bench wallet's token, which the response cache never
answers, and the overview graph, whose service keeps a cache of its own, just after a change to the bench wallet's
agent, which drops it (measured last); no cache answers`;

const servers: ServerHandle[] = [];
const tempDirs: string[] = [];

/**
 * One public read: a label and the URL of its i-th distinct request; `keeps` when the service keeps its answer in a
 * cache of its own (beside the response cache) that only a change notice drops.
 */
type Read = [label: string, url: (i: number) => string, keeps?: 'service-cache'];

function publicReads(agents: number, ids: string[]): Read[] {
  const pick = (i: number) => 1 + ((i * 7919) % agents);
  const wallet = (i: number) => `0x${String(pick(i)).padStart(40, '0')}`;
  const id = (i: number) => ids[i % ids.length]!;
  const words = ['nova', 'prism', 'orbit', 'delta'];
  const reads: Read[] = [
    ['GET /api/agents?limit=20', (i) => `/api/agents?limit=20&offset=${i * 20}`],
    ['GET /api/agents?search=agent-77', (i) => `/api/agents?search=agent-${77 + i}`],
    ['GET /api/agents?search=<word>', (i) => `/api/agents?search=${words[i % 4]}&offset=${i}`],
    ['GET /api/agents?min_trust_score&tier', (i) => `/api/agents?min_trust_score=${60 + (i % 5)}&tier=pro&limit=20`],
    ['GET /api/agents?with_metrics=true', (i) => `/api/agents?with_metrics=true&limit=20&offset=${i * 20}`],
    ['GET /api/v1/agents?limit=20', (i) => `/api/v1/agents?limit=20&offset=${i * 20}`],
    ['GET /api/v1/agents?q=&is_callable', (i) => `/api/v1/agents?q=agent-${100 + i}&is_callable=false`],
    ['GET /api/v1/agents?min_trust_score', (i) => `/api/v1/agents?min_trust_score=${50 + (i % 10)}&limit=20`],
    ['GET /api/agents/{id}', (i) => `/api/agents/${id(i)}`],
    ['GET /api/agents/{handle}', (i) => `/api/agents/agent-${pick(i)}`],
    ['GET /api/v1/agents/{id}', (i) => `/api/v1/agents/${id(i)}`],
    ['GET /api/v1/agents/{handle}', (i) => `/api/v1/agents/agent-${pick(i + 1)}`],
    ['GET /api/agent?wallet=', (i) => `/api/agent?wallet=${wallet(i)}`],
    ['GET /api/agents/{id}/public-profile', (i) => `/api/agents/agent-${pick(i + 2)}/public-profile`],
    ['GET /api/agents/{id}/endorse', (i) => `/api/agents/${id(i)}/endorse`],
    ['GET /api/graph/connections (overview)', () => `/api/graph/connections`, 'service-cache'],
    ...[1, 2, 3, 4].map((depth): Read => [
      `GET /api/graph/connections?depth=${depth}`,
      (i) => `/api/graph/connections?wallet=${wallet(i)}&depth=${depth}`,
    ]),
    ['GET /api/v1/agents/leaderboard', (i) => `/api/v1/agents/leaderboard?sort=${['score', 'accuracy', 'jobs'][i % 3]}`],
    ['GET /api/stats', () => `/api/stats`],
    // family A pages by offset (it has no page parameter): each request a different page, so no cache answers
    ['GET /api/skills', (i) => `/api/skills?limit=20&offset=${i * 20}`],
    ['GET /api/v1/skills', (i) => `/api/v1/skills?offset=${i * 20}`],
    ['GET /api/v1/jobs', (i) => `/api/v1/jobs?limit=20&offset=${i * 20}`],
    ['GET /api/v1/signals', (i) => `/api/v1/signals?limit=20&offset=${i * 20}`],
    ['GET /api/smart-money/preview', () => `/api/smart-money/preview`],
    ['GET /api/v1/trade/tokens', () => `/api/v1/trade/tokens`],
  ];
  return reads;
}

const AUTH_READS = [
  '/api/v1/credits',
  '/api/v1/agents/me/stats',
  '/api/v1/webhooks',
  '/api/list-api-keys',
  '/api/v1/agents/{id}/memory',
];

async function signIn(baseUrl: string): Promise<{ token: string; agentId: string }> {
  const account = privateKeyToAccount(generatePrivateKey());
  const post = async (url: string, body: unknown, token?: string) => {
    const response = await fetch(`${baseUrl}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as any;
    if (!response.ok) throw new Error(`POST ${url}: HTTP ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const { challenge, challenge_id } = await post('/api/v1/auth/challenge', {
    owner_wallet: account.address,
    agent_pubkey: `bench-${account.address.slice(2, 10)}`,
  });
  const verified = await post('/api/v1/auth/verify', {
    challenge_id,
    signature: await account.signMessage({ message: challenge }),
  });
  // Sign-in creates no agent: the agent-scoped reads (memory) need one of the wallet's own.
  const created = await post('/api/v1/agents', { agent_name: 'Bench reader' }, verified.token);
  return { token: verified.token, agentId: created.agent_id };
}

/** A signed-in bench wallet with an agent of its own. */
interface Session {
  token: string;
  agentId: string;
}

/**
 * A read's cold p50/p99 on one connection, over ROUNDS requests. A read whose URLs repeat (the overview graph,
 * stats, the leaderboard's three sorts, the trust filters, smart money, trade tokens) would be answered from caches
 * after its first requests, so each of its samples is made cold: the request carries the bench wallet's token (a
 * caller with a credential is never answered from the response cache, policy.ts), and for a read whose service
 * keeps its own cache (the graph's), the bench wallet's agent changes just before it (an `agent` change notice
 * drops that cache).
 */
async function cold(baseUrl: string, read: Read, session: Session): Promise<{ p50: number; p99: number; status: number }> {
  const times: number[] = [];
  let status = 0;
  const urls = Array.from({ length: ROUNDS }, (_, i) => read[1](i));
  const fixed = new Set(urls).size < ROUNDS;
  const authorization = `Bearer ${session.token}`;
  for (let i = 0; i < ROUNDS; i++) {
    if (fixed && read[2] === 'service-cache') {
      const changed = await fetch(`${baseUrl}/api/v1/agents/${session.agentId}`, {
        method: 'PATCH',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ bio: `bench sample ${i}` }),
      });
      await changed.arrayBuffer();
      if (!changed.ok) throw new Error(`PATCH the bench agent: HTTP ${changed.status}`);
      await sleep(20); // the write's own after-work (its event, notices) is not the read's
    }
    const started = performance.now();
    const response = await fetch(`${baseUrl}${urls[i]}`, fixed ? { headers: { authorization } } : {});
    await response.arrayBuffer();
    times.push(performance.now() - started);
    status = response.status;
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), status };
}

function rssMb(pid: number): number {
  // The server process (one worker); /proc/<pid>/status VmRSS in kB.
  const read = (p: number) => {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    } catch {
      return 0;
    }
  };
  return read(pid) / 1024;
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const loadAverage = os.loadavg();
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  if (values.schema && !/^[a-z_][a-z0-9_]{0,62}$/.test(values.schema))
    throw new Error('--schema must be a lower-case identifier');
  if (values.cold && databaseUrl && !values.schema) throw new Error('--cold on PostgreSQL needs --schema (seeded once, kept)');
  const schema = values.schema ?? `bench_scale_${process.pid}`;
  const keep = values.keep || values.schema !== undefined;
  const kept = values['data-dir'] !== undefined && !databaseUrl;
  const dataDir = kept ? path.resolve(values['data-dir']!) : await makeTempDir('scale');
  if (!kept) tempDirs.push(dataDir);
  const env: Record<string, string> = databaseUrl
    ? {
        DATABASE_URL: (() => {
          const url = new URL(databaseUrl);
          url.searchParams.set('schema', schema);
          return url.toString();
        })(),
        // its own devnet and secrets, not the checkout's ./.data
        DATA_DIR: dataDir,
      }
    : { DATABASE_URL: '', DATA_DIR: dataDir };
  const engine = databaseUrl ? 'PostgreSQL' : 'PGlite';
  if (buildIsStale(ROOT)) buildProduction(ROOT);

  const seedStarted = performance.now();
  let seeded = false;
  const runtime = await startRuntime({ env: { ...process.env, ...env, LOG_LEVEL: 'warn' } });
  try {
    const [existing] = await runtime.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM agents');
    if ((values.schema || kept) && Number(existing?.n ?? 0) > 0) {
      note(
        `reusing ${kept ? dataDir : `schema ${schema}`} (${Number(existing!.n).toLocaleString('en-US')} agents; not reseeded)`,
      );
    } else {
      note(`seeding the ${presetName} preset on ${engine}`);
      await runtime.database.sql.withConnection((conn) => seedDatabase(conn, { ...PRESETS[presetName] }, { log: note }));
      seeded = true;
    }
  } finally {
    await runtime.close();
  }
  const seedSeconds = (performance.now() - seedStarted) / 1000;

  const port = await freePort();
  const server = startServer({
    name: 'server.ts',
    args: [...SERVER_NODE_ARGS, 'server.ts'],
    port,
    cwd: ROOT,
    env: {
      ...env,
      PORT: String(port),
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      WEB_CONCURRENCY: '1',
      RATE_LIMIT_AUTH: '100000/1m',
      // the cold pass changes the bench wallet's agent before each sample of a read with one URL
      RATE_LIMIT_WRITE: '100000/1m',
    },
  });
  servers.push(server);
  await waitForHealthy(server, HEALTH);
  // A new process runs its background jobs at once (the propagated score, the leaderboard's table: seconds at
  // this size, and on PGlite they hold its one connection): the cold pass measures reads, not a restart.
  note(`letting the startup's background jobs finish (${SETTLE_SECONDS} s)`);
  await sleep(SETTLE_SECONDS * 1000);
  const base = server.baseUrl;

  const probeDb = new pg.Client(databaseUrl ? { connectionString: parsePostgresUrl(databaseUrl).connectionString } : {});
  let ids: string[] = [];
  let agents: number = PRESETS[presetName].agents;
  if (databaseUrl) {
    await probeDb.connect();
    ids = (await probeDb.query(`SELECT id FROM "${schema}".agents ORDER BY created_at DESC LIMIT ${ROUNDS}`)).rows.map(
      (row) => row.id as string,
    );
    agents = Number((await probeDb.query(`SELECT count(*)::int AS n FROM "${schema}".agents`)).rows[0].n);
    await probeDb.end();
  } else {
    const list = (await (await fetch(`${base}/api/agents?limit=${ROUNDS}`)).json()) as { agents: { id: string }[] };
    ids = list.agents.map((agent) => agent.id);
  }
  const reads = publicReads(agents, ids).filter((read) => selected(read[0]));

  const session = await signIn(base);
  note('cold: one connection, distinct requests');
  const coldRows: { label: string; p50: number; p99: number; status: number }[] = [];
  // The reads measured after changes come last: a change starts background work (the propagated score's run within a
  // minute: seconds of PGlite's one connection at this size) that the other reads' samples should not wait behind.
  const measured = new Map<string, { p50: number; p99: number; status: number }>();
  for (const read of [...reads.filter((read) => !read[2]), ...reads.filter((read) => read[2])]) {
    measured.set(read[0], await cold(base, read, session));
  }
  for (const read of reads) coldRows.push({ label: read[0], ...measured.get(read[0])! });
  if (values.cold) {
    await stopServer(server);
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    const loads = (values: number[]) => values.map((v) => v.toFixed(2)).join(', ');
    const coldTable = table(
      ['public read', 'status', 'cold p50', 'cold p99'],
      coldRows.map((row) => [`\`${row.label}\``, String(row.status), ms(row.p50), ms(row.p99)]),
    );
    process.stdout.write(
      `cold pass on ${engine}, load average at start ${loads(loadAverage)}, now ${loads(os.loadavg())}\n${coldTable}\n`,
    );
    // The PGlite target is on the cold pass alone (issue 21): a full cold pass there is the section of record.
    if (engine === 'PGlite' && !only) {
      const met = coldRows.filter((row) => row.p50 < TARGETS.pgliteColdP50Ms).length;
      const counts = PRESETS[presetName];
      await writeMarkedSection(
        REPORT,
        'scale-pglite',
        `### The same reads on PGlite (\`npm run bench -- scale --cold\` without \`DATABASE_URL\`)

Generated on ${startedAt.toISOString()} (${os.cpus().length} cores, load average at start ${loads(loadAverage)}) on
**PGlite** (embedded, in \`server.ts\`'s own process) with the \`${presetName}\` preset (${counts.agents.toLocaleString('en-US')}
agents, ${counts.endorsements.toLocaleString('en-US')} endorsements; ${seeded ? `seeded in ${seedSeconds.toFixed(0)} s` : 'a data directory seeded earlier with it and reused'}). Cold: one connection, ${ROUNDS}
requests per endpoint (${COLD_METHOD}), ${SETTLE_SECONDS} s after the server
came up (its startup jobs, which hold PGlite's one connection for seconds at this size, done).

${coldTable}

Target (issue 21): cold p50 under ${TARGETS.pgliteColdP50Ms} ms on PGlite: ${met} of ${coldRows.length} met.`,
      );
      note(`wrote the PGlite data volume section of ${path.relative(ROOT, REPORT)}`);
    }
    return;
  }

  note(`${CONNECTIONS} connections per endpoint`);
  const load = (title: string, url: string, headers?: Record<string, string>) =>
    measure({ title, url, headers, connections: CONNECTIONS, duration: SECONDS, warmup: 1, allowFailures: true });
  const loadRows: LoadResult[] = [];
  for (const read of reads) loadRows.push(await load(read[0], `${base}${read[1](0)}`));

  const bearer = { authorization: `Bearer ${session.token}` };
  const authRows: LoadResult[] = [];
  for (const url of AUTH_READS.filter((url) => selected(`GET ${url}`))) {
    const target = url.replace('{id}', session.agentId);
    authRows.push(await load(`GET ${url}`, `${base}${target}`, bearer));
  }
  const rss = rssMb(server.child.pid!);
  if (only) {
    await stopServer(server);
    const rps = (value: number) => Math.round(value).toLocaleString('en-US');
    process.stdout.write(
      `${table(
        ['read', 'cold p50', 'cold p99', `not 2xx at ${CONNECTIONS}`, `req/s at ${CONNECTIONS}`, `p50 at ${CONNECTIONS}`],
        [
          ...coldRows.map((row) => {
            const loaded = loadRows.find((candidate) => candidate.title === row.label)!;
            return [
              row.label,
              `${row.p50.toFixed(1)} ms`,
              `${row.p99.toFixed(1)} ms`,
              String(loaded.failures),
              rps(loaded.requestsPerSec),
              `${loaded.exactP50.toFixed(1)} ms`,
            ];
          }),
          ...authRows.map((row) => [
            row.title,
            '',
            '',
            String(row.failures),
            rps(row.requestsPerSec),
            `${row.exactP50.toFixed(1)} ms`,
          ]),
        ],
      )}\nserver RSS ${rss.toFixed(0)} MB; load average ${os
        .loadavg()
        .map((v) => v.toFixed(2))
        .join(', ')}\n`,
    );
    return;
  }

  const health = await (await fetch(`${base}${HEALTH}`)).json();
  const door = await load(`GET ${HEALTH} (fast door)`, `${base}${HEALTH}`);
  await stopServer(server);
  const rawPort = await freePort();
  const raw = startServer({
    name: 'raw node:http',
    args: [
      '-e',
      `const body = ${JSON.stringify(health)};
       require('node:http').createServer((q, s) => { s.writeHead(200, { 'content-type': 'application/json' }); s.end(JSON.stringify(body)); }).listen(${rawPort}, '127.0.0.1');`,
    ],
    port: rawPort,
    cwd: ROOT,
    env: {},
  });
  servers.push(raw);
  await waitForHealthy(raw, HEALTH);
  const rawResult = await load(`GET ${HEALTH} (raw node:http)`, `${raw.baseUrl}${HEALTH}`);
  await stopServer(raw);

  if (databaseUrl && !keep) {
    const client = new pg.Client({ connectionString: parsePostgresUrl(databaseUrl).connectionString });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }

  const coldTarget = databaseUrl ? TARGETS.coldP50Ms : TARGETS.pgliteColdP50Ms;
  const byLabel = new Map(loadRows.map((row) => [row.title, row]));
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const rps = (value: number) => Math.round(value).toLocaleString('en-US');
  const coldMet = coldRows.filter((row) => row.p50 < coldTarget).length;
  const loadMet = loadRows.filter((row) => row.failures === 0 && row.requestsPerSec >= TARGETS.publicRps).length;
  const authMet = authRows.filter((row) => row.failures === 0 && row.requestsPerSec >= TARGETS.authRps).length;
  const counts = PRESETS[presetName];
  const section = `## Data volume (\`npm run bench -- scale\`)

Generated on ${startedAt.toISOString()} (${os.cpus().length} cores, load average at start ${loadAverage
    .map((v) => v.toFixed(2))
    .join(', ')}) on **${engine}** with the \`${presetName}\` preset (${counts.agents.toLocaleString('en-US')} agents,
${counts.endorsements.toLocaleString('en-US')} endorsements, ${counts.jobs.toLocaleString('en-US')} jobs,
${counts.signals.toLocaleString('en-US')} signals, ${counts['ledger-transactions'].toLocaleString('en-US')} ledger
transactions, ${counts.events.toLocaleString('en-US')} events; ${seeded ? `seeded in ${seedSeconds.toFixed(0)} s` : `a schema seeded earlier with it and reused`}). \`server.ts\`, one
worker, in a process of its own; autocannon in the bench's process. Cold: one connection, ${ROUNDS} requests per
endpoint before any load (${COLD_METHOD}), ${SETTLE_SECONDS} s after the server came up
(its startup jobs done). Load: ${CONNECTIONS} connections for
${SECONDS} s on one URL per endpoint (the spec's caches answer where they apply).

Raw node:http answering the health JSON in the same run: **${rps(rawResult.requestsPerSec)} req/s**; the fast door's
\`GET ${HEALTH}\`: ${rps(door.requestsPerSec)} req/s (${(door.requestsPerSec / rawResult.requestsPerSec).toFixed(2)}x).

${table(
  [
    'public read',
    'status',
    'cold p50',
    'cold p99',
    `not 2xx at ${CONNECTIONS}`,
    `req/s at ${CONNECTIONS}`,
    `p50 at ${CONNECTIONS}`,
  ],
  coldRows.map((row) => {
    const loaded = byLabel.get(row.label)!;
    return [
      `\`${row.label}\``,
      String(row.status),
      ms(row.p50),
      ms(row.p99),
      String(loaded.failures),
      rps(loaded.requestsPerSec),
      ms(loaded.exactP50),
    ];
  }),
)}

${table(
  ['authenticated read (bearer)', 'not 2xx', `req/s at ${CONNECTIONS}`, `p50 at ${CONNECTIONS}`],
  authRows.map((row) => [`\`${row.title}\``, String(row.failures), rps(row.requestsPerSec), ms(row.exactP50)]),
)}

Server RSS after the run: ${rss.toFixed(0)} MB.

Targets (issue 21): cold p50 under ${coldTarget} ms on ${engine}: ${coldMet} of ${coldRows.length} met; at least
${TARGETS.publicRps.toLocaleString('en-US')} req/s at ${CONNECTIONS} connections: ${loadMet} of ${loadRows.length} public reads and
${authMet} of ${authRows.length} authenticated reads met; RSS under ${TARGETS.rssMb} MB: ${rss < TARGETS.rssMb ? 'met' : 'not met'}.
`;
  process.stdout.write(section);
  // The section of record is PostgreSQL's (issue 21's load targets are set there); PGlite's is its cold pass (--cold).
  if (engine !== 'PostgreSQL') {
    note(`a full run on ${engine} is printed only: set DATABASE_URL for the data volume section, or --cold for PGlite's`);
    return;
  }
  await writeMarkedSection(REPORT, 'scale', section);
  note(`wrote the data volume section of ${path.relative(ROOT, REPORT)}`);
}

async function cleanup(): Promise<void> {
  await Promise.all(servers.map((server) => stopServer(server)));
  await Promise.all(tempDirs.map((dir) => removeDir(dir)));
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopLoad();
    void cleanup().finally(() => process.exit(130));
  });
}

try {
  await main();
  await cleanup();
  process.exit(0);
} catch (error) {
  console.error(`[bench scale] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  await cleanup();
  process.exit(1);
}
