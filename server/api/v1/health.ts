// GET /api/v1/health - liveness and self-checks
import { z } from '@hono/zod-openapi';
import { endpoint } from '../../http/endpoint';
import { checkHealth } from '../../health/check-health';

export const health = endpoint({
  method: 'get',
  path: '/api/v1/health',
  summary: 'Health check',
  description: 'status is ok when every self-check passes and degraded otherwise; issues_count counts failing checks.',
  tags: ['Platform'],
  auth: 'none',
  response: z.object({
    status: z.enum(['ok', 'degraded']),
    issues_count: z.number().int(),
    checks: z.array(z.object({ name: z.string(), ok: z.boolean(), detail: z.string().optional() })),
    checked_at: z.string(),
  }),
  handler: () => checkHealth(),
});
