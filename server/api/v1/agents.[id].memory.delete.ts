// DELETE /api/v1/agents/{id}/memory - clear all of an agent's memory (owner only)
import { endpoint } from '../../http/endpoint';
import { clearMemory } from '../../memory/delete-memory';
import { memoryCleared, memoryParams } from '../../schemas/memory';

export default endpoint({
  method: 'delete',
  path: '/api/v1/agents/{id}/memory',
  summary: 'Clear all memory keys (agent owner only)',
  tags: ['Memory'],
  auth: ['bearer'],
  scopes: ['agents.write'],
  rateLimit: 'write',
  params: memoryParams,
  status: 200,
  response: memoryCleared,
  errors: { 403: 'Not the agent’s owner', 404: 'Unknown agent' },
  handler: ({ caller, params }) => clearMemory(caller, params.id),
});
