import type { Queryable } from '../core/db/sql-runner';
import { ApiError } from '../core/errors';
import type { JobRow } from './job-views';

/** The job, locked for the rest of the transaction (404 when it does not exist). */
export async function lockJob(
  id: string,
  runner: Queryable,
): Promise<JobRow & { past_expiry: boolean; past_deadline: boolean | null }> {
  const [job] = await runner.query<JobRow & { past_expiry: boolean; past_deadline: boolean | null }>(
    `SELECT j.*, j.expires_at <= now() AS past_expiry, j.delivery_deadline <= now() AS past_deadline FROM jobs j WHERE j.id = $1 FOR UPDATE`,
    [id],
  );
  if (!job) throw ApiError.notFound('Job');
  return job;
}

/** 409 unless the job still takes bids or an acceptance: open or bid, and not past expires_at. */
export function assertBiddable(job: JobRow & { past_expiry?: boolean }, action: string): void {
  if (job.status !== 'open' && job.status !== 'bid') {
    throw new ApiError('conflict', `Cannot ${action}: the job is ${job.status}`, { status: job.status });
  }
  if (job.past_expiry) throw new ApiError('conflict', `Cannot ${action}: the job has expired`, { status: 'expired' });
}
