// The liveness and readiness probes (GET /api/v1/health/live and /ready). The last tests close a
// database or mark the process draining, each on an instance of its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markDraining } from '../server/health/readiness';
import { startTestApp, type TestApp } from './harness';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('liveness and readiness probes', () => {
  it('live answers 200 with the answering process', async () => {
    const response = await app.get('/api/v1/health/live');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'alive', pid: process.pid });
  });

  it('ready answers 200 while the database answers', async () => {
    const response = await app.get('/api/v1/health/ready');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ready: true, reason: null, pid: process.pid });
  });

  it('ready answers 503 when the database does not answer, and live still 200', async () => {
    const broken = await startTestApp();
    try {
      await broken.database.close();
      const ready = await broken.get('/api/v1/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({ ready: false, reason: 'database' });
      expect((await broken.get('/api/v1/health/live')).status).toBe(200);
    } finally {
      await broken.close().catch(() => undefined);
    }
  });

  // PostgreSQL: every pooled connection busy with a slow statement. (On PGlite one slow statement holds the
  // server's thread itself; the embedded database's fairness is server/core/db/pglite-fairness.int.test.ts.)
  it.skipIf(!process.env.DATABASE_URL)(
    'health answers from its last report while every pooled connection is busy, without waiting for one',
    async () => {
      const busy = await startTestApp();
      try {
        expect((await busy.get('/api/v1/health')).body).toMatchObject({ status: 'ok' });
        await new Promise((resolve) => setTimeout(resolve, 1100)); // the report is due again
        let sleptAt = 0;
        const sleepers = Promise.all(Array.from({ length: 12 }, () => busy.database.sql.query('SELECT pg_sleep(3)'))).then(
          () => (sleptAt = performance.now()),
        );
        await new Promise((resolve) => setTimeout(resolve, 200)); // the pool's 10 connections are taken
        const health = await busy.get('/api/v1/health');
        const answeredAt = performance.now();
        expect(health.status).toBe(200);
        expect(health.body).toMatchObject({ status: 'ok' });
        expect(sleptAt).toBe(0); // answered while every connection was still asleep
        await sleepers;
        expect(answeredAt).toBeLessThan(sleptAt);
      } finally {
        await busy.close();
      }
    },
    30_000,
  );

  it('ready answers 503 once the process drains (SIGTERM), on connections still open', async () => {
    const draining = await startTestApp();
    try {
      const base = await draining.listen();
      expect((await fetch(`${base}/api/v1/health/ready`)).status).toBe(200);
      markDraining();
      const response = await fetch(`${base}/api/v1/health/ready`);
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ ready: false, reason: 'draining' });
    } finally {
      await draining.close();
    }
  });
});
