// PUT /api/v1/agents/{id}/memory/{key} - write one memory key (owner only); the policy and limits of POST /memory
import { endpoint } from '../../http/endpoint';
import { writeMemory } from '../../memory/write-memory';
import { memoryEntry, memoryKeyParams, memoryPutBody } from '../../schemas/memory';
import store from './agents.[id].memory.post';

const { tags, auth, scopes, bodyLimit, errors } = store;

export default endpoint({
  method: 'put',
  path: '/api/v1/agents/{id}/memory/{key}',
  summary: 'Write a memory key (agent owner only)',
  description: 'Same limits and charges as POST /api/v1/agents/{id}/memory.',
  tags,
  auth,
  scopes,
  rateLimit: 'write',
  params: memoryKeyParams,
  body: memoryPutBody,
  bodyLimit,
  status: 200,
  response: memoryEntry,
  errors,
  handler: ({ caller, params, body }) =>
    writeMemory(caller, params.id, { key: params.key, value: body.value, expiresInSeconds: body.expires_in_seconds }),
});
