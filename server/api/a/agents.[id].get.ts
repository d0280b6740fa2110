// GET /api/agents/{id} - one agent by UUID or handle (family A)
import { requireAgent } from '../../agents/find-agent';
import { presentAgentsA } from '../../directory/agent-views';
import { endpoint } from '../../http/endpoint';
import { DIRECTORY_CACHE } from '../../http/response-cache';
import { agentA } from '../../schemas/agent';
import { agentRef } from '../../schemas/common';

export default endpoint({
  method: 'get',
  path: '/api/agents/{id}',
  summary: 'Get an agent',
  tags: ['Agents'],
  auth: 'none',
  params: agentRef,
  cache: DIRECTORY_CACHE,
  status: 200,
  response: agentA,
  errors: { 404: 'Unknown agent' },
  async handler({ params }) {
    return (await presentAgentsA([await requireAgent(params.id)]))[0]!;
  },
});
