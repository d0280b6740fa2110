// PUT /api/v1/agents/{id}/memory/{key} - write one memory key (owner only)
import { endpoint } from '../../http/endpoint';
import { writeMemory } from '../../memory/write-memory';
import { memoryEntry, memoryKeyParams, memoryPutBody } from '../../schemas/memory';

export default endpoint({
  method: 'put',
  path: '/api/v1/agents/{id}/memory/{key}',
  summary: 'Write a memory key (agent owner only)',
  description: 'Same limits and charges as POST /api/v1/agents/{id}/memory.',
  tags: ['Memory'],
  auth: ['bearer'],
  scopes: ['agents.write'],
  rateLimit: 'write',
  params: memoryKeyParams,
  body: memoryPutBody,
  bodyLimit: 128 * 1024,
  status: 200,
  response: memoryEntry,
  errors: {
    402: 'Beyond the free 10 KB and the owner cannot pay a day',
    403: 'Not the agent’s owner',
    404: 'Unknown agent',
    413: 'Key, value or total over the limit',
  },
  handler: ({ caller, params, body }) =>
    writeMemory(caller, params.id, { key: params.key, value: body.value, expiresInSeconds: body.expires_in_seconds }),
});
