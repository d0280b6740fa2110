// GET /api/v1/agents/{id} - an agent's full profile with trust metrics and recent activity
import { agentProfileB } from '../../directory/agent-profile';
import { endpoint } from '../../http/endpoint';
import { DIRECTORY_CACHE } from '../../http/response-cache';
import { agentProfileB as agentProfileBSchema } from '../../schemas/agent';
import { agentRef } from '../../schemas/common';

export default endpoint({
  method: 'get',
  path: '/api/v1/agents/{id}',
  summary: 'An agent’s full profile with trust metrics and recent activity',
  description: 'With the owner’s credential the answer also shows invoke_url and the wallets in recent activity.',
  tags: ['Agents'],
  auth: 'optional',
  params: agentRef,
  cache: DIRECTORY_CACHE,
  status: 200,
  response: agentProfileBSchema,
  errors: { 404: 'Unknown agent' },
  handler: ({ params, caller }) => agentProfileB(params.id, caller?.wallet ?? null),
});
