// GET /api/v1/agents/{id}/memory/{key} - read one memory key (owner only)
import { endpoint } from '../../http/endpoint';
import { readMemory } from '../../memory/read-memory';
import { memoryEntry, memoryKeyParams } from '../../schemas/memory';

export default endpoint({
  method: 'get',
  path: '/api/v1/agents/{id}/memory/{key}',
  summary: 'Read a memory key (agent owner only)',
  tags: ['Memory'],
  auth: ['bearer'],
  scopes: ['agents.read'],
  params: memoryKeyParams,
  status: 200,
  response: memoryEntry,
  errors: { 403: 'Not the agent’s owner', 404: 'Unknown agent, or the key is absent or expired', 413: 'Key too long' },
  handler: ({ caller, params }) => readMemory(caller, params.id, params.key),
});
