// DELETE /api/v1/agents/{id}/memory/{key} - delete one memory key (owner only)
import { endpoint } from '../../http/endpoint';
import { deleteMemory } from '../../memory/delete-memory';
import { memoryDeleted, memoryKeyParams } from '../../schemas/memory';

export default endpoint({
  method: 'delete',
  path: '/api/v1/agents/{id}/memory/{key}',
  summary: 'Delete a memory key (agent owner only)',
  tags: ['Memory'],
  auth: ['bearer'],
  scopes: ['agents.write'],
  rateLimit: 'write',
  params: memoryKeyParams,
  status: 200,
  response: memoryDeleted,
  errors: { 403: 'Not the agent’s owner', 404: 'Unknown agent, or the key is absent or expired', 413: 'Key too long' },
  handler: ({ caller, params }) => deleteMemory(caller, params.id, params.key),
});
