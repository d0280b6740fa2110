// Issue 22, item 6: a rolling deploy with no failed request. Three `server.ts` instances on one
// PostgreSQL schema and Redis behind a round-robin load balancer that health-checks
// /api/v1/health/ready (test/load/round-robin-proxy.ts); a mixed read and write workload (public reads,
// sign-ins, paid invocations, job posts, profile edits) and an event stream run through it while the
// instances are replaced one at a time (SIGTERM, wait for the exit, start a new one, wait until the
// balancer sees it ready). Any 5xx, other unexpected status or connection error the clients see is a
// failure; afterwards every acknowledged write is in the database, the ledger adds up, and the stream
// got `reconnect` on each drain and resumed with Last-Event-ID without a gap or a repeat.
//
// PostgreSQL and Redis only. In the `load` project: it starts processes, ~2 min.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkInvariants } from '../scripts/seed-data';
import { startServer, type RunningServer } from '../e2e/server-process';
import type { TestApp } from './harness';
import { call, door } from './load/http-client';
import { readStream, startInstancesEnvironment, type InstancesEnvironment } from './load/instances';
import { startProxy, type Proxy } from './load/round-robin-proxy';
import { fund } from './money';
import { startTarget } from './targets';
import { newWallet, signIn } from './wallets';

const onPostgres = Boolean(process.env.DATABASE_URL);
const AUTH_SECRET = 'rolling-deploy-instances-share-this-secret-012345';
const WORKERS = 4;
/** A pause between a client's rounds: the load must leave the 2-core machine room to start instances. */
const ROUND_PAUSE_MS = 50;
/** SIGTERM: the instance answers ready 503 this long before it closes its listener (server.ts). */
const SHUTDOWN_DELAY_MS = 1000;

describe.skipIf(!onPostgres)(
  'a rolling deploy of three instances under load (skipped on PGlite: one process owns an embedded database)',
  () => {
    let environment: InstancesEnvironment;
    let app: TestApp;
    let proxy: Proxy;
    let target: Awaited<ReturnType<typeof startTarget>>;
    const servers: RunningServer[] = [];
    const retired: RunningServer[] = [];

    beforeAll(async () => {
      environment = await startInstancesEnvironment({
        AUTH_SECRET,
        SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
        RATE_LIMIT_WRITE: '100000/1m',
        RATE_LIMIT_BOOTSTRAP: '1000/1d',
      });
      app = environment.app;
      target = await startTarget();
      proxy = await startProxy();
      for (let i = 0; i < 3; i++) {
        const server = await startServer(environment.env);
        servers.push(server);
        proxy.add(server.url);
        await proxy.waitReady(server.url);
      }
    }, 300_000);

    afterAll(async () => {
      await proxy?.close();
      await Promise.all([...servers, ...retired].map((server) => server.stop()));
      await target?.close();
      await environment?.close();
    });

    async function member(claw = 0) {
      const account = newWallet();
      const session = await signIn(door(proxy.url), account);
      const created = await call(
        proxy.url,
        'POST',
        '/api/v1/agents',
        { agent_name: `Member ${account.address.slice(2, 8)}` },
        session.token,
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      if (claw > 0) await fund(account.address, claw);
      return { account, token: session.token, agentId: created.body.agent_id as string };
    }

    it('replaces the instances one by one under load with no failed request, no lost write and streams told to reconnect', async () => {
      const owner = await member(10);
      const patched = await call(
        proxy.url,
        'PATCH',
        `/api/v1/agents/${owner.agentId}`,
        { is_callable: true, invoke_url: `${target.url}/echo`, price_claw_per_call: 0.5 },
        owner.token,
      );
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      const members = await Promise.all(Array.from({ length: WORKERS }, () => member(500)));

      const failures: string[] = [];
      const counts = { requests: 0, reads: 0, writes: 0 };
      const acknowledged = { invokes: [] as string[], jobs: [] as string[] };
      /** One request through the balancer: anything but the expected statuses is a failure. */
      const send = async (what: string, method: string, path: string, body?: unknown, token?: string, ok = [200, 201]) => {
        counts.requests++;
        if (method === 'GET') counts.reads++;
        else counts.writes++;
        try {
          const answer = await call(proxy.url, method, path, body, token);
          if (!ok.includes(answer.status))
            failures.push(`${what}: HTTP ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
          return ok.includes(answer.status) ? answer : null;
        } catch (error) {
          failures.push(`${what}: ${(error as Error).message} ${String((error as { cause?: unknown }).cause ?? '')}`);
          return null;
        }
      };

      // The event stream: reopened through the balancer with Last-Event-ID whenever the server ends it.
      const watcher = await member();
      const stream = {
        ids: [] as string[],
        reconnects: 0,
        opened: 0,
        stopped: false,
        current: null as ReturnType<typeof readStream> | null,
      };
      const watching = (async () => {
        while (!stream.stopped) {
          stream.opened++;
          const reader = readStream(proxy.url, watcher.token, stream.ids.at(-1));
          stream.current = reader;
          await reader.done.catch((error: Error) => failures.push(`stream: ${error.message}`));
          stream.ids.push(...reader.ids);
          stream.reconnects += reader.reconnects.length;
          if (!stream.stopped && reader.reconnects.length === 0) failures.push('stream ended without a reconnect event');
        }
      })();

      let stop = false;
      const workload = Promise.all(
        members.map(async (me, w) => {
          for (let round = 0; !stop; round++) {
            await send('list agents', 'GET', '/api/v1/agents?limit=20');
            await send('agent page', 'GET', `/api/v1/agents/${owner.agentId}`);
            await send('jobs', 'GET', '/api/v1/jobs');
            if (round % 2 === 0) await send('stats', 'GET', '/api/stats');
            if (round % 2 === 1) await send('leaderboard', 'GET', '/api/v1/agents/leaderboard');
            const invoked = await send('invoke', 'POST', `/api/v1/agents/${owner.agentId}/invoke`, { round }, me.token);
            if (invoked) acknowledged.invokes.push(invoked.body.invocation_id);
            if (round % 3 === 0) {
              const job = await send(
                'post job',
                'POST',
                '/api/v1/jobs',
                { title: `Roll ${w}-${round}`, description: 'Survive a rolling deploy', bounty_claw: 1 },
                me.token,
              );
              if (job) acknowledged.jobs.push(job.body.job_id);
            }
            if (round % 4 === 1)
              await send('edit', 'PATCH', `/api/v1/agents/${me.agentId}`, { description: `round ${round}` }, me.token);
            await new Promise((resolve) => setTimeout(resolve, ROUND_PAUSE_MS));
            if (round % 10 === 5) {
              counts.requests += 2;
              counts.writes += 2;
              await signIn(door(proxy.url), newWallet()).catch((error: Error) => failures.push(`sign-in: ${error.message}`));
            }
          }
        }),
      );

      // Roll: each old instance drains and exits, then its replacement starts and joins the balancer.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const rolls: { drainMs: number; exitCode: number | null; startMs: number }[] = [];
      for (let i = 0; i < 3; i++) {
        const old = servers.shift()!;
        retired.push(old);
        const stopping = Date.now();
        old.child.kill('SIGTERM');
        const exitCode = await old.exit;
        const drainMs = Date.now() - stopping;
        proxy.remove(old.url);
        const starting = Date.now();
        const fresh = await startServer(environment.env, 'server', { healthyWithinMs: 180_000 });
        servers.push(fresh);
        proxy.add(fresh.url);
        await proxy.waitReady(fresh.url, 60_000);
        rolls.push({ drainMs, exitCode, startMs: Date.now() - starting });
        console.log(
          `rolled ${i + 1}: ${JSON.stringify(rolls.at(-1))}; ${counts.requests} requests, ${failures.length} failed so far`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 3000));
      stop = true;
      await workload;
      stream.stopped = true;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await stream.current?.stop();
      await watching;

      console.log(
        `rolling deploy: ${counts.requests} requests (${counts.reads} reads, ${counts.writes} writes), ` +
          `${failures.length} failed, ${proxy.retried} retried by the balancer after a refused connection; ` +
          `${acknowledged.invokes.length} paid invocations, ${acknowledged.jobs.length} jobs; ` +
          `stream opened ${stream.opened} times, ${stream.reconnects} reconnect events, ${stream.ids.length} events; ` +
          `rolls ${JSON.stringify(rolls)}`,
      );
      const kinds = new Map<string, number>();
      for (const failure of failures) kinds.set(failure.slice(0, 120), (kinds.get(failure.slice(0, 120)) ?? 0) + 1);
      if (failures.length) console.log(`failures by kind: ${JSON.stringify([...kinds], null, 1)}`);
      expect(failures.slice(0, 10)).toEqual([]);
      expect(rolls.map((roll) => roll.exitCode)).toEqual([0, 0, 0]);
      for (const roll of rolls) expect(roll.drainMs).toBeLessThan(10_000);
      expect(acknowledged.invokes.length).toBeGreaterThan(30);
      // The stream was on an instance that was rolled at least once: it was told to reconnect.
      expect(stream.reconnects).toBeGreaterThanOrEqual(1);

      // Every acknowledged write is there; the money adds up.
      const sql = app.database.sql;
      const [invocations] = await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM invocations WHERE id = ANY($1::uuid[])`,
        [acknowledged.invokes],
      );
      expect(invocations!.n).toBe(acknowledged.invokes.length);
      const [jobs] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE id = ANY($1::uuid[])`, [
        acknowledged.jobs,
      ]);
      expect(jobs!.n).toBe(acknowledged.jobs.length);
      await expect(checkInvariants(sql, undefined, { live: true })).resolves.toBeUndefined();

      // The stream across its reconnects: every job.posted event since it opened, once, in order.
      const numeric = (id: string) => id.replace(/\D/g, '');
      const seen = stream.ids.map(numeric);
      expect(seen.length).toBeGreaterThan(0);
      expect(new Set(seen).size).toBe(seen.length);
      const posted = await sql.query<{ id: string }>(
        `SELECT e.id::text AS id FROM events e WHERE e.name = 'job.posted' AND e.id >= $1::bigint ORDER BY e.id`,
        [seen[0]],
      );
      const expected = posted.map((row) => row.id);
      const missed = expected.filter((id) => !seen.includes(id));
      const extra = seen.filter((id) => !expected.includes(id));
      expect({ missed, extra }).toEqual({ missed: [], extra: [] });
      expect(seen).toEqual(expected);
    }, 420_000);
  },
);
