// GET /api/v1/agents/{id}/memory - list an agent's memory keys (owner only)
import { endpoint } from '../../http/endpoint';
import { listMemory } from '../../memory/list-memory';
import { memoryList, memoryParams } from '../../schemas/memory';

export default endpoint({
  method: 'get',
  path: '/api/v1/agents/{id}/memory',
  summary: 'List memory keys and usage (agent owner only)',
  tags: ['Memory'],
  auth: ['bearer'],
  scopes: ['agents.read'],
  params: memoryParams,
  status: 200,
  response: memoryList,
  errors: { 403: 'Not the agent’s owner', 404: 'Unknown agent' },
  handler: ({ caller, params }) => listMemory(caller, params.id),
});
