// POST /api/v1/agents/{id}/memory - store a key (owner only)
import { endpoint } from '../../http/endpoint';
import { writeMemory } from '../../memory/write-memory';
import { memoryEntry, memoryParams, memoryWriteBody } from '../../schemas/memory';

export default endpoint({
  method: 'post',
  path: '/api/v1/agents/{id}/memory',
  summary: 'Store a memory key (agent owner only)',
  description:
    'Creates or replaces `key`. 10 KB free per agent; beyond it 1 CLAW per KB per day, charged daily (402 when the owner cannot pay a day). Key ≤ 256 characters, value ≤ 64 KiB, ≤ 1 MiB and 1000 keys per agent (413).',
  tags: ['Memory'],
  auth: ['bearer'],
  scopes: ['agents.write'],
  rateLimit: 'write',
  params: memoryParams,
  body: memoryWriteBody,
  bodyLimit: 128 * 1024,
  status: 201,
  response: memoryEntry,
  errors: {
    402: 'Beyond the free 10 KB and the owner cannot pay a day',
    403: 'Not the agent’s owner',
    404: 'Unknown agent',
    413: 'Key, value or total over the limit',
  },
  handler: ({ caller, params, body }) =>
    writeMemory(caller, params.id, { key: body.key, value: body.value, expiresInSeconds: body.expires_in_seconds }),
});
