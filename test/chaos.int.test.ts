import { expect, inject, it } from 'vitest';
import { runChaos } from './chaos/chaos';

// Issue 23 item 1, short: a mixed money workload against a real server process, SIGKILLed at random
// moments (seed printed; CHAOS_SEED replays), every invariant checked after each kill and at the end.
// The full run (`npm run chaos`) makes at least 20 kills on each database. Runs in the `load` project,
// after every other test, on PGlite or (DATABASE_URL) PostgreSQL.
const seed = process.env.CHAOS_SEED ? Number(process.env.CHAOS_SEED) : Math.floor(Math.random() * 2 ** 31);
const kills = Number(process.env.CHAOS_KILLS ?? 2);

it(`survives ${kills} SIGKILLs with every invariant (seed ${seed})`, async () => {
  const report = await runChaos({
    kills,
    seed,
    databaseUrl: process.env.DATABASE_URL,
    pgliteTemplate: inject('pgliteTemplate') || undefined,
    minUptimeMs: 0,
    maxUptimeMs: 2000,
  });
  expect(report.violations, `seed ${seed}`).toEqual([]);
  expect(report.serverErrors, `seed ${seed}`).toEqual([]);
  expect(report.kills).toBe(kills);
  expect(report.orphanedAnvils).toBe(0);
  expect(report.acknowledged).toBeGreaterThan(kills * 4);
  expect(report.webhookEvents).toBeGreaterThan(0);
}, 600_000);
