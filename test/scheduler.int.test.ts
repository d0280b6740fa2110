// Scheduled jobs run once per period across instances (issue 22): the first instance to claim a
// period runs the job; test/instances.int.test.ts checks it with three real processes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimPeriod, startJobs, type Job } from '../server/scheduler/jobs';
import { startTestApp, type TestApp } from './harness';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('scheduled jobs', () => {
  it('gives each period of a job to the first instance that claims it', async () => {
    const job: Job = { id: `claim-test-${Date.now()}`, everyMs: 60_000, run: async () => {} };
    const now = Date.now();
    expect(await claimPeriod(job, 'instance-a', now)).toBe(true);
    expect(await claimPeriod(job, 'instance-b', now)).toBe(false);
    expect(await claimPeriod(job, 'instance-a', now)).toBe(false);
    expect(await claimPeriod(job, 'instance-b', now + 60_000)).toBe(true);
  });

  it('runs a job once per period when two schedulers tick at once', async () => {
    let runs = 0;
    const job: Job = { id: `twice-${Date.now()}`, everyMs: 3_600_000, run: async () => void runs++ };
    const stops = [startJobs(app.runtime, [job]), startJobs(app.runtime, [job])];
    await new Promise((resolve) => setTimeout(resolve, 500));
    stops.forEach((stop) => stop());
    expect(runs).toBe(1);
    const rows = await app.database.sql.query(`SELECT instance FROM scheduled_runs WHERE job_id = $1`, [job.id]);
    expect(rows).toHaveLength(1);
  });
});
