// GET /api/agents/{id} - one agent by UUID (or handle)
import { z } from '@hono/zod-openapi';
import { presentAgentsA } from '../../agents/agent-views';
import { requireAgent } from '../../agents/find-agent';
import { endpoint } from '../../http/endpoint';

export const getAgentA = endpoint({
  method: 'get',
  path: '/api/agents/{id}',
  summary: 'Get an agent',
  tags: ['Agents'],
  auth: 'none',
  params: z.object({ id: z.string().max(64) }),
  errors: { 404: 'Unknown agent' },
  async handler({ params }) {
    return (await presentAgentsA([await requireAgent(params.id)]))[0];
  },
});
