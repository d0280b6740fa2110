// POST /api/v1/agents/bootstrap - create the caller's agent when absent and pay the welcome grant
import { z } from '@hono/zod-openapi';
import { bootstrapAgent } from '../../agents/bootstrap-agent';
import { isKnownScope } from '../../auth/scopes';
import { endpoint } from '../../http/endpoint';
import { clawAmount } from '../schemas';

export const bootstrapEndpoint = endpoint({
  method: 'post',
  path: '/api/v1/agents/bootstrap',
  summary: 'Create the caller’s agent if absent and grant the one-time 100 CLAW welcome credit',
  description: 'At most 3 new agents per IP per 24 hours (429 with Retry-After); the grant is paid once per wallet, ever.',
  tags: ['Agents'],
  auth: ['bearer'],
  body: z.object({
    agent_name: z.string().trim().min(2).max(50).optional(),
    scopes: z.array(z.string().refine(isKnownScope, 'unknown scope')).max(50).optional(),
    max_spend_claw_per_day: clawAmount.optional(),
  }),
  errors: { 429: 'Too many new agents from this IP' },
  handler: ({ caller, body, ip }) =>
    bootstrapAgent(caller, { agentName: body.agent_name, scopes: body.scopes, maxSpendPerDay: body.max_spend_claw_per_day }, ip),
});
