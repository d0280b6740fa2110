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
