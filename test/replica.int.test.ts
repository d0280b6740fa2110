// Issue 22, item 5: public reads on a read replica (DATABASE_REPLICA_URL). Starts a real streaming
// replica: a throwaway primary (initdb) and a standby made from it with pg_basebackup -R, each on its
// own port in a temporary directory; the app runs on the pair and we check that
// (a) a public read is answered by the replica: with replay paused, a new agent is missing from the
//     public read while its owner's authenticated read has it; a read with a response cache
//     (server/http/response-cache.ts) fills a miss from the primary, so it is never older than a
//     change notice already heard;
// (b) a lagging replica never makes a writer miss its own write, and is not read once it is more than
//     DATABASE_REPLICA_MAX_LAG_MS behind (bounded staleness); a replica that is down is not read either;
// (c) cleanup stops both servers and removes their directory.
//
// PostgreSQL only, and only where the PostgreSQL server binaries are installed (skipped with the reason
// otherwise). In the `load` project: it starts processes.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../server/core/db/open';
import { startTestApp, type TestApp } from './harness';
import { findServerBinaries, sqlOn, startPrimaryAndReplica, type PgPair } from './load/pg-cluster';
import { newWallet, signIn } from './wallets';

const binaries = findServerBinaries();
const skipReason = !process.env.DATABASE_URL
  ? 'PostgreSQL only (DATABASE_URL is not set: the tests run on PGlite)'
  : 'missing' in binaries
    ? binaries.missing
    : null;
if (skipReason) console.log(`replica test skipped: ${skipReason}`);

const MAX_LAG_MS = 3000;

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(skipReason !== null)('public reads on a streaming read replica', () => {
  let pair: PgPair;
  let app: TestApp;
  let database: Database;
  let pids: number[] = [];

  beforeAll(async () => {
    pair = await startPrimaryAndReplica((binaries as { bin: string }).bin);
    pids = [pair.primary.child.pid!, pair.replica.child.pid!];
    database = await openDatabase({
      DATA_DIR: '',
      DATABASE_URL: `${pair.primary.url()}?schema=replicated`,
      DATABASE_REPLICA_URL: pair.replica.url(),
      DATABASE_REPLICA_MAX_LAG_MS: MAX_LAG_MS,
    });
    app = await startTestApp({}, { database });
    // The migrated tables reach the replica and it is in use.
    await until(async () => database.replica!.status().usable, 15_000, 'replica usable');
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await pair?.destroy();
    // (c) nothing is left behind: both servers exited and their directory is gone.
    for (const pid of pids) expect(() => process.kill(pid, 0), `postgres ${pid} still runs`).toThrow();
    if (pair) expect(existsSync(pair.root)).toBe(false);
  });

  it('sends public reads to the replica and the owner’s reads to the primary; a lagging replica is read at most DATABASE_REPLICA_MAX_LAG_MS behind', async () => {
    const before = await signIn(app, newWallet());
    const session = await signIn(app, newWallet());
    const health = await app.get('/api/v1/health');
    expect(health.body.checks.find((check: { name: string }) => check.name === 'replica')).toMatchObject({ ok: true });

    // The replica has what was written before the pause.
    const first = await app.post('/api/v1/agents', { agent_name: 'Before the pause' }, { token: before.token });
    expect(first.status, first.text).toBe(201);
    // The registration file is a public read with no response cache: the replica answers it.
    const publicUrl = (agent: string) => `/api/v1/agents/${agent}/registration.json`;
    await until(async () => (await app.get(publicUrl(first.body.agent_id))).status === 200, 5000, 'replicated');

    await sqlOn(pair.replica.url(), 'SELECT pg_wal_replay_pause()');
    const paused = Date.now();
    const created = await app.post('/api/v1/agents', { agent_name: 'After the pause' }, { token: session.token });
    expect(created.status, created.text).toBe(201);
    const id = created.body.agent_id as string;

    // (a) The public read is the replica's: it does not have the new agent yet...
    const publicRead = await app.get(publicUrl(id));
    expect(Date.now() - paused).toBeLessThan(MAX_LAG_MS);
    expect(publicRead.status, 'a public read while replay is paused is served by the replica').toBe(404);
    // A cached read's miss is the primary's: the directory has the new agent at once.
    const cachedRead = await app.get(`/api/v1/agents/${id}`);
    expect(cachedRead.status, 'a cached read fills from the primary').toBe(200);
    expect(Date.now() - paused).toBeLessThan(MAX_LAG_MS);
    // ...the primary does, and the owner (authenticated: read-your-own-writes) reads it there.
    expect((await sqlOn(pair.primary.url(), 'SELECT count(*)::int AS n FROM replicated.agents WHERE id = $1', [id]))[0]).toEqual({
      n: 1,
    });
    // (b) The writer never misses its own write, however far behind the replica is.
    const ownRead = await app.get(`/api/v1/agents/${id}`, { token: session.token });
    expect(ownRead.status, ownRead.text).toBe(200);
    const renamed = await app.request('PATCH', `/api/v1/agents/${id}`, {
      token: session.token,
      body: { agent_name: 'Renamed while lagging' },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await app.get(`/api/v1/agents/${id}`, { token: session.token })).body.agent_name).toBe('Renamed while lagging');

    // Bounded staleness: once the replica is more than MAX_LAG_MS behind, public reads go to the primary.
    const fellBack = await until(async () => (await app.get(publicUrl(id))).status === 200, MAX_LAG_MS * 3, 'fallback');
    const behind = Date.now() - paused;
    console.log(`replica paused: public read served by the primary after ${behind} ms (bound ${MAX_LAG_MS} ms)`);
    expect(behind).toBeGreaterThanOrEqual(MAX_LAG_MS);
    expect(fellBack).toBeGreaterThan(0);
    // Health reports it with its next check (a probe may get the previous report while one runs).
    const replicaCheck = async () =>
      (await app.get('/api/v1/health')).body.checks.find((check: { name: string }) => check.name === 'replica');
    await until(async () => (await replicaCheck()).ok === false, 3000, 'health names the lagging replica');

    // Replay resumes: the replica catches up and is read again.
    await sqlOn(pair.replica.url(), 'SELECT pg_wal_replay_resume()');
    const caughtUp = await until(async () => database.replica!.status().usable, 10_000, 'replica usable again');
    console.log(`replay resumed: replica in use again after ${caughtUp} ms`);
  });

  it('answers public reads from the primary while the replica is down', async () => {
    const owner = newWallet();
    const session = await signIn(app, owner);
    await pair.replica.stop();
    const created = await app.post('/api/v1/agents', { agent_name: 'Replica down' }, { token: session.token });
    expect(created.status, created.text).toBe(201);
    const started = Date.now();
    for (let i = 0; i < 20; i++) {
      const read = await app.get(`/api/v1/agents/${created.body.agent_id}/registration.json`);
      expect(read.status, read.text).toBe(200);
      const graph = await app.get('/api/graph/connections?depth=1');
      expect(graph.status, graph.text).toBe(200);
    }
    console.log(`replica down: 40 public reads answered by the primary in ${Date.now() - started} ms`);
    expect(database.replica!.status().usable).toBe(false);
  });
});
