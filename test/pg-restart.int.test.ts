// Issue 23 item 2: a PostgreSQL restart during load. The app runs on a throwaway PostgreSQL server
// (initdb in a temporary directory: the shared CI database cannot be restarted) while two writers
// post jobs and a reader lists them over real HTTP; the server is stopped (fast shutdown), left down
// for 2 s and started again. Every answer meanwhile is a success or 503 with Retry-After (never 500,
// never a hang); the app serves reads and writes again by itself within seconds of the restart,
// keeps at most its pool's connections, and nothing is half-applied: every acknowledged job exists
// with its escrow, every escrow equals its job's bounty, every job has its event, the ledger balances.
//
// PostgreSQL only, and only where the server binaries are installed (skipped with the reason
// otherwise). In the `load` project: it starts processes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationName, openDatabase, type Database } from '../server/core/db/open';
import { startTestApp, type TestApp } from './harness';
import { startFaultLoad } from './load/fault-load';
import { call } from './load/http-client';
import { findServerBinaries, sqlOn, startRestartable, type PgRestartable } from './load/pg-cluster';
import { assertLedgerBalanced, fund } from './money';
import { newWallet, signIn } from './wallets';

const binaries = findServerBinaries();
const skipReason = !process.env.DATABASE_URL
  ? 'PostgreSQL only (DATABASE_URL is not set: the tests run on PGlite)'
  : 'missing' in binaries
    ? binaries.missing
    : null;
if (skipReason) console.log(`PostgreSQL restart test skipped: ${skipReason}`);

const SCHEMA = 'restarted';

describe.skipIf(skipReason !== null)('a PostgreSQL restart under load', () => {
  let pg: PgRestartable;
  let database: Database;
  let app: TestApp;
  let base = '';

  beforeAll(async () => {
    pg = await startRestartable((binaries as { bin: string }).bin);
    database = await openDatabase({ DATA_DIR: '', DATABASE_URL: `${pg.server.url()}?schema=${SCHEMA}` });
    app = await startTestApp({ RATE_LIMIT_WRITE: '1000000/1m' }, { database });
    base = await app.listen();
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await pg?.destroy();
  });

  it('answers 503 with Retry-After while the database is down, recovers by itself, loses and half-applies nothing', async () => {
    const account = newWallet();
    const session = await signIn(app, account);
    await app.post('/api/v1/agents', { agent_name: 'Restart poster' }, { token: session.token });
    await fund(account.address, 100_000);

    const load = startFaultLoad(base, session.token);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const before = load.created.length;
    const restartedAt = Date.now();
    await pg.restart(2000);
    const upAfter = Date.now() - restartedAt;

    // Recovers by itself: a read and a write succeed again within 10 s of the server being back.
    let recoveredIn = -1;
    const backUp = Date.now();
    while (Date.now() - backUp < 10_000 && !load.bad.length) {
      const createdSoFar = load.created.length;
      const read = await load.within('recovery read', call(base, 'GET', '/api/v1/jobs?limit=1'));
      if (read?.status === 200 && load.created.length > createdSoFar) {
        recoveredIn = Date.now() - backUp;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    load.stop();
    await load.done;
    console.log(
      `pg restart: down and up again in ${upAfter} ms; serving again ${recoveredIn} ms after; answers ${JSON.stringify(
        Object.fromEntries(load.statuses),
      )}; jobs posted ${before} before, ${load.created.length - before} during and after`,
    );
    expect(load.bad.slice(0, 5)).toEqual([]);
    expect(load.statuses.get(503) ?? 0, 'requests made while the database was down').toBeGreaterThan(0);
    expect(recoveredIn).toBeGreaterThanOrEqual(0);
    expect(load.created.length).toBeGreaterThan(before);

    // The pool is whole again: 40 concurrent requests succeed and it holds at most its connections.
    const burst = await Promise.all(Array.from({ length: 40 }, () => call(base, 'GET', '/api/v1/jobs?limit=1')));
    expect(burst.map((response) => response.status)).toEqual(burst.map(() => 200));
    const [connections] = await sqlOn<{ n: number }>(
      pg.server.url(),
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1`,
      [applicationName(SCHEMA)],
    );
    expect(connections!.n).toBeLessThanOrEqual(11);
    const health = await call(base, 'GET', '/api/v1/health');
    expect(health.body.checks.find((check: { name: string }) => check.name === 'database')).toMatchObject({ ok: true });

    // Nothing lost or half-applied.
    await assertLedgerBalanced();
    const jobs = await app.database.sql.query<{ id: string; bounty: string; held: string | null }>(
      `SELECT j.id, j.bounty::text, a.balance::text AS held FROM jobs j LEFT JOIN ledger_accounts a ON a.id = 'hold:job:' || j.id`,
    );
    const ids = new Set(jobs.map((job) => job.id));
    expect(load.created.filter((id) => !ids.has(id))).toEqual([]);
    expect(jobs.filter((job) => job.held !== job.bounty)).toEqual([]);
    const posted = await app.database.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE name = 'job.posted'`);
    expect(posted[0]!.n).toBe(jobs.length);
  }, 120_000);
});
