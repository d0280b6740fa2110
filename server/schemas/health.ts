import { z } from '@hono/zod-openapi';
import { timestamp } from './common';

export const health = z
  .strictObject({
    status: z.enum(['ok', 'degraded']),
    issues_count: z.number().int(),
    checks: z.array(z.strictObject({ name: z.string(), ok: z.boolean(), detail: z.string().optional() })),
    checked_at: timestamp,
  })
  .openapi('Health');

export const liveness = z
  .strictObject({
    status: z.literal('alive'),
    pid: z.number().int().openapi({ description: 'The answering process (one worker of several under WEB_CONCURRENCY)' }),
    uptime_s: z.number(),
  })
  .openapi('Liveness');

export const readiness = z
  .strictObject({
    ready: z.boolean(),
    reason: z.enum(['draining', 'database']).nullable().openapi({
      description: 'Why not ready: draining (shutting down) or database (it does not answer); null when ready',
    }),
    pid: z.number().int(),
    checked_at: timestamp,
  })
  .openapi('Readiness');
