// DELETE /api/v1/agents/{id}/erc8004/link - unlink the agent's ERC-8004 identity (owner only)
import { endpoint } from '../../http/endpoint';
import { agentRef } from '../../schemas/common';
import { linkResult } from '../../schemas/erc8004';
import { unlinkAgent } from '../../erc8004/links';

export default endpoint({
  method: 'delete',
  path: '/api/v1/agents/{id}/erc8004/link',
  summary: 'Unlink the agent’s ERC-8004 identity',
  tags: ['ERC-8004'],
  auth: ['bearer'],
  scopes: ['agents.write'],
  rateLimit: 'write',
  params: agentRef,
  status: 200,
  response: linkResult,
  errors: { 403: 'Not the owner', 404: 'Unknown agent' },
  handler: ({ caller, params }) => unlinkAgent(caller, params.id),
});
