// POST /api/v1/agents/{id}/attest - attest another agent (one per pair per 7 days)
import { z } from '@hono/zod-openapi';
import { endpoint } from '../../http/endpoint';
import { attestAgent } from '../../trust/attest-agent';

export const attestEndpoint = endpoint({
  method: 'post',
  path: '/api/v1/agents/{id}/attest',
  summary: 'Attest an agent: positive, negative or neutral, weight 1-10',
  tags: ['Trust'],
  auth: ['bearer'],
  params: z.object({ id: z.string().max(64) }),
  body: z.object({
    verdict: z.enum(['positive', 'negative', 'neutral']),
    weight: z.number().int().min(1).max(10),
    note: z.string().max(280).optional(),
  }),
  errors: {
    400: 'Invalid fields, or attesting your own agent',
    404: 'Unknown agent',
    429: 'Already attested in the last 7 days',
  },
  handler: ({ caller, params, body }) => attestAgent(caller, params.id, body),
});
