// Measures every public read on an already seeded database (npm run seed), one request at a time:
// p50/p99 per endpoint over `ROUNDS` distinct requests (cold: each asks for a different agent,
// search term or page, so no cache answers). Usage: DATABASE_URL=... tsx bench/scale-probe.ts [rounds]
import { serve } from '@hono/node-server';
import { startRuntime } from '../server/core/runtime';
import { createApi } from '../server/api/app';

const rounds = Number(process.argv[2] ?? 50);
const runtime = await startRuntime({ env: { ...process.env, LOG_LEVEL: 'silent' } });
const app = createApi();
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
await new Promise((resolve) => server.once('listening', resolve));
const { port } = server.address() as { port: number };
const sql = runtime.database.sql;
const n = Number((await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM agents'))[0]?.n ?? 0);
const pick = (i: number) => 1 + ((i * 7919) % n);
const wallet = (i: number) => `0x${String(pick(i)).padStart(40, '0')}`;
const hub = (i: number) => `0x${String(1 + (i % 20)).padStart(40, '0')}`;
const ids = (await sql.query<{ id: string }>(`SELECT id FROM agents ORDER BY created_at DESC LIMIT ${rounds}`)).map((r) => r.id);

const endpoints: [string, (i: number) => string][] = [
  ['GET /api/agents?limit=20', (i) => `/api/agents?limit=20&offset=${i * 20}`],
  ['GET /api/v1/agents?limit=20', (i) => `/api/v1/agents?limit=20&offset=${i * 20}`],
  ['GET /api/agents?search=agent-77', (i) => `/api/agents?search=agent-${77 + i}`],
  [
    'GET /api/agents?search=<name word>',
    (i) => `/api/agents?search=${['nova', 'prism', 'orbit', 'delta'][i % 4]}${i % 2 ? '' : ' '}`,
  ],
  ['GET /api/agents?min_trust_score=60&tier=pro', (i) => `/api/agents?min_trust_score=${60 + (i % 5)}&tier=pro&limit=20`],
  ['GET /api/agents?with_metrics=true', (i) => `/api/agents?with_metrics=true&limit=20&offset=${i * 20}`],
  ['GET /api/agents/{id}', (i) => `/api/agents/${ids[i % ids.length]}`],
  ['GET /api/v1/agents/{id}', (i) => `/api/v1/agents/${ids[i % ids.length]}`],
  ['GET /api/agents/{id}/public-profile', (i) => `/api/agents/agent-${pick(i)}/public-profile`],
  ['GET /api/graph/connections (overview)', () => `/api/graph/connections`],
  ['GET /api/graph/connections?depth=2', (i) => `/api/graph/connections?wallet=${wallet(i)}&depth=2`],
  ['GET /api/graph/connections?depth=4', (i) => `/api/graph/connections?wallet=${wallet(i)}&depth=4`],
  ['GET /api/graph/connections?depth=4 (hub)', (i) => `/api/graph/connections?wallet=${hub(i)}&depth=4`],
  ['GET /api/stats', () => `/api/stats`],
];

const pct = (values: number[], p: number) =>
  values.sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
console.log(`agents: ${n}, rounds: ${rounds}`);
// warm-up: connections, JIT (not counted)
for (const [, url] of endpoints) await (await fetch(`http://127.0.0.1:${port}${url(rounds)}`)).arrayBuffer();
for (const [label, url] of endpoints) {
  const times: number[] = [];
  let status = 0;
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    const response = await fetch(`http://127.0.0.1:${port}${url(i)}`);
    await response.arrayBuffer();
    times.push(performance.now() - t);
    status = response.status;
  }
  console.log(
    `${label.padEnd(46)} ${String(status).padEnd(4)} p50 ${pct(times, 0.5).toFixed(1).padStart(7)} ms  p99 ${pct(times, 0.99).toFixed(1).padStart(7)} ms`,
  );
}
server.close();
await runtime.close();
