// GET /api/cron/{job} - run one scheduled job now (external schedulers, serverless hosts)
import { z } from '@hono/zod-openapi';
import { timingSafeEqual } from 'node:crypto';
import { ApiError } from '../../core/errors';
import { currentRuntime } from '../../core/runtime';
import { endpoint } from '../../http/endpoint';
import { JOBS } from '../../scheduler/jobs';

const cronResult = z.strictObject({ job: z.string(), ran_at: z.string(), duration_ms: z.number() }).openapi('CronResult');

function sameSecret(sent: string, expected: string): boolean {
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export default endpoint({
  method: 'get',
  path: '/api/cron/{job}',
  summary: 'Run a scheduled job once (Authorization: Bearer $CRON_SECRET)',
  description:
    'For hosts without a long-running process: the same jobs the in-process scheduler runs (server/scheduler/jobs.ts). ' +
    'Safe to call while other instances run them (row claims and locks).',
  tags: ['Platform'],
  auth: 'none',
  params: z.object({ job: z.string().max(64) }),
  status: 200,
  response: cronResult,
  errors: { 401: 'Missing or wrong CRON_SECRET', 404: 'No such job' },
  async handler({ params, request }) {
    const runtime = currentRuntime();
    const sent = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1] ?? '';
    if (!sameSecret(sent, runtime.config.CRON_SECRET))
      throw new ApiError('unauthorized', 'Send Authorization: Bearer <CRON_SECRET>');
    const job = JOBS.find((candidate) => candidate.id === params.job);
    if (!job) throw ApiError.notFound('Job');
    const started = Date.now();
    await job.run(runtime);
    return { job: job.id, ran_at: new Date(started).toISOString(), duration_ms: Date.now() - started };
  },
});
