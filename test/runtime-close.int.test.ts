// Closing a runtime (server.ts on SIGTERM, after draining): its scheduled jobs and webhook worker stop, and
// every closer runs even when an earlier one fails, so the database pool is always closed.
import { expect, it } from 'vitest';
import { ensureJobsStarted } from '../server/scheduler/jobs';
import { startTestApp } from './harness';

it('closes a runtime whose jobs and webhook worker run, without an error', async () => {
  const app = await startTestApp();
  ensureJobsStarted(app.runtime);
  // the worker's first pass and a sender of its own exist before the close
  await new Promise((resolve) => setTimeout(resolve, 200));
  await expect(app.close()).resolves.toBeUndefined();
});

it('runs every closer when one fails, then reports the failure', async () => {
  const app = await startTestApp();
  const ran: string[] = [];
  app.runtime.onClose(() => void ran.push('first registered'));
  app.runtime.onClose(() => {
    throw new Error('a closer failed');
  });
  app.runtime.onClose(() => void ran.push('last registered'));
  await expect(app.close()).rejects.toThrow('a closer failed');
  // closers run last registered first; the one registered before the failing one still ran
  expect(ran).toEqual(['last registered', 'first registered']);
  // and the database was closed after them
  await expect(app.runtime.database.sql.query('SELECT 1')).rejects.toThrow();
});
