import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPgliteInstance, openDatabase, parsePostgresUrl } from '../server/core/db/open';
import { checkInvariants } from './chaos/chaos';
import { startTestApp, type TestApp } from './harness';
import { fund } from './money';
import { newWallet, signIn } from './wallets';

// Issue 23 item 6: the backup paths of docs/reliability.md, on a seeded database (agents, funded
// wallets, jobs in escrow and paid out, a signal with stakes): PostgreSQL with pg_dump -Fc and
// pg_restore into a fresh schema; PGlite with its data-directory dump (dumpDataDir, what
// `scripts/backup` would copy) loaded into a new directory. The copy has the same rows and balances
// and passes the chaos test's ledger invariants.
let app: TestApp;
const dir = mkdtempSync(path.join(tmpdir(), 'vouchsafe-backup-'));

beforeAll(async () => {
  app = await startTestApp({ RATE_LIMIT_WRITE: '1000000/1m' });
  const people = [];
  for (let i = 0; i < 3; i++) {
    const account = newWallet();
    const session = await signIn(app, account);
    await app.post('/api/v1/agents', { agent_name: `Backup ${i}` }, { token: session.token });
    await fund(account.address, 1000);
    people.push(session);
  }
  const [poster, bidder, staker] = people as [(typeof people)[0], (typeof people)[0], (typeof people)[0]];
  for (let n = 0; n < 3; n++) {
    const job = await app.post(
      '/api/v1/jobs',
      { title: 'Backup job', description: 'Escrowed', bounty_claw: 10 + n },
      { token: poster.token },
    );
    expect(job.status).toBe(201);
    if (n === 0) {
      const bid = await app.post(
        `/api/v1/jobs/${job.body.job_id}/bid`,
        { bid_claw: 9, eta_seconds: 60, proposal: 'ok' },
        { token: bidder.token },
      );
      await app.post(`/api/v1/jobs/${job.body.job_id}/accept`, { bid_id: bid.body.bid_id }, { token: poster.token });
      expect((await app.post(`/api/v1/jobs/${job.body.job_id}/submit`, { result: 'done' }, { token: bidder.token })).status).toBe(
        200,
      );
    }
  }
  const signal = await app.post(
    '/api/v1/signals',
    { title: 'Backup signal', body: 'x', signal_type: 'long', asset: 'ETH', confidence: 50, stake_claw: 5 },
    { token: poster.token },
  );
  for (const who of [bidder, staker]) {
    await app.post(`/api/v1/signals/${signal.body.signal_id}/stake`, { stance: 'agree', amount_claw: 2 }, { token: who.token });
  }
});
afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

const SNAPSHOT = [
  `SELECT id, balance::text FROM ledger_accounts ORDER BY id`,
  `SELECT count(*)::int AS n FROM ledger_postings`,
  `SELECT id::text, status, bounty::text FROM jobs ORDER BY id`,
  `SELECT id::text, amount::text FROM signal_stakes ORDER BY id`,
  `SELECT max(id)::text AS head, count(*)::int AS n FROM events`,
];
async function snapshot(sql: { query<T>(text: string): Promise<T[]> }) {
  return Promise.all(SNAPSHOT.map((text) => sql.query(text)));
}

it('restores a pg_dump or PGlite dump with the same rows and balances and every ledger invariant', async () => {
  const before = await snapshot(app.database.sql);
  expect((before[2] as unknown[]).length).toBe(3);

  if (app.database.kind === 'postgres') {
    const base = parsePostgresUrl(process.env.DATABASE_URL!).connectionString;
    const file = path.join(dir, 'backup.dump');
    execFileSync('pg_dump', ['--format=custom', `--schema=${app.database.schema}`, `--file=${file}`, base]);
    // Restore into a fresh schema: rename the dumped schema by restoring into a scratch database's
    // schema would need createdb; instead restore to a SQL script and retarget its schema name.
    const script = execFileSync('pg_restore', ['--no-owner', '--file=-', file]).toString();
    const restoredSchema = `${app.database.schema}_restored`;
    const retargeted = script
      .split(`"${app.database.schema}"`)
      .join(`"${restoredSchema}"`)
      .split(`${app.database.schema}.`)
      .join(`${restoredSchema}.`)
      .replace(new RegExp(`SCHEMA ${app.database.schema}\\b`, 'g'), `SCHEMA ${restoredSchema}`);
    const scriptFile = path.join(dir, 'restore.sql');
    writeFileSync(scriptFile, retargeted);
    execFileSync('psql', ['--quiet', '--set=ON_ERROR_STOP=1', `--file=${scriptFile}`, base]);
    const url = new URL(process.env.DATABASE_URL!);
    url.searchParams.set('schema', restoredSchema);
    const restored = await openDatabase({ DATABASE_URL: url.toString(), DATA_DIR: '' }, { migrate: false });
    try {
      expect(await snapshot(restored.sql)).toEqual(before);
      expect(await checkInvariants(restored.sql, [])).toEqual([]);
    } finally {
      await restored.close();
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${restoredSchema}" CASCADE`).finally(() => client.end());
    }
  } else {
    // The PGlite backup: a dump of the data directory (a tarball), loaded into a new directory.
    const dump = await app.database.pglite!.dumpDataDir('none');
    writeFileSync(path.join(dir, 'backup.tar'), Buffer.from(await dump.arrayBuffer()));
    const copy = await createPgliteInstance({ dataDir: path.join(dir, 'restored'), loadDataDir: dump });
    await copy.close();
    const restored = await openDatabase(
      { DATA_DIR: dir, DATABASE_URL: undefined },
      {
        migrate: false,
        pglite: await createPgliteInstance({ dataDir: path.join(dir, 'restored') }),
      },
    );
    try {
      expect(await snapshot(restored.sql)).toEqual(before);
      expect(await checkInvariants(restored.sql, [])).toEqual([]);
    } finally {
      await restored.close();
    }
  }
}, 60_000);
