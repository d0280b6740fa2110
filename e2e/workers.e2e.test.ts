// npm start with WEB_CONCURRENCY (server.ts): on PostgreSQL a primary forks one worker per core
// (here 2) that share the port, the bundled devnet and the database; on PGlite one process serves.
// SIGTERM stops every process within 10 s.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureProductionBuild, startServer, type RunningServer } from './server-process';

const onPostgres = Boolean(process.env.DATABASE_URL);

/** GET over a fresh connection (no keep-alive), so node:cluster hands each request to the next worker. */
function getFresh(url: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { connection: 'close' } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function answeringPids(url: string, requests: number): Promise<Set<number>> {
  const pids = new Set<number>();
  for (let i = 0; i < requests; i++) {
    const ready = await getFresh(`${url}/api/v1/health/ready`);
    expect(ready.status).toBe(200);
    expect(ready.body.ready).toBe(true);
    pids.add(ready.body.pid);
  }
  return pids;
}

beforeAll(() => ensureProductionBuild());

describe.runIf(onPostgres)('WEB_CONCURRENCY=2 on PostgreSQL', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ WEB_CONCURRENCY: '2' });
  });
  afterAll(() => server?.stop());

  it('serves from two worker processes, both ready and both on the one bundled devnet', async () => {
    // Workers start one after the other: ask until both have answered.
    const pids = new Set<number>();
    for (let round = 0; round < 20 && pids.size < 2; round++) {
      for (const pid of await answeringPids(server.url, 6)) pids.add(pid);
      if (pids.size < 2) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(pids.size).toBe(2);
    expect(pids.has(server.child.pid!)).toBe(false);
    for (let i = 0; i < 4; i++) {
      const health = await getFresh(`${server.url}/api/v1/health`);
      expect(health.body.checks).toContainEqual(expect.objectContaining({ name: 'chain', ok: true }));
      expect(health.body.checks.find((check: { name: string }) => check.name === 'chain').detail).toMatch(/bundled devnet/);
    }
    // One devnet: only the primary started an anvil.
    expect(server.stdout().match(/devnet started/g)?.length ?? 0).toBe(1);
  });

  it('replaces a worker that dies, after a delay when it had only just started', async () => {
    const before = await answeringPids(server.url, 8);
    const victim = [...before][0]!;
    process.kill(victim, 'SIGKILL');
    const replaced = new Set<number>();
    for (let round = 0; round < 40 && replaced.size < 2; round++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      for (const pid of await answeringPids(server.url, 4)) if (pid !== victim) replaced.add(pid);
    }
    expect(replaced.size).toBe(2);
    expect(alive(victim)).toBe(false);
    // It had run for less than the healthy time: the primary waited before forking again.
    expect(server.stdout()).toMatch(
      /worker exited; starting another.*"restart_in_ms":1000|"restart_in_ms":1000.*worker exited; starting another/,
    );
  });

  it('stops the primary and every worker within 10 s of SIGTERM', async () => {
    const pids = await answeringPids(server.url, 8);
    const started = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exit).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    for (const pid of pids) expect(alive(pid), `worker ${pid}`).toBe(false);
  });
});

describe.runIf(!onPostgres)('WEB_CONCURRENCY=2 on PGlite', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ WEB_CONCURRENCY: '2' });
  });
  afterAll(() => server?.stop());

  it('serves from the one process (the embedded database has one writer)', async () => {
    const pids = await answeringPids(server.url, 6);
    expect([...pids]).toEqual([server.child.pid]);
    expect(server.stdout()).toMatch(/WEB_CONCURRENCY is ignored on the embedded database/);
  });
});
