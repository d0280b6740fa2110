// POST /api/v1/agents/{id}/erc8004/link - link the agent to an ERC-8004 identity (owner only)
import { endpoint } from '../../http/endpoint';
import { agentRef } from '../../schemas/common';
import { linkBody, linkResult } from '../../schemas/erc8004';
import { linkAgent } from '../../erc8004/links';

export default endpoint({
  method: 'post',
  path: '/api/v1/agents/{id}/erc8004/link',
  summary: 'Link the agent to an ERC-8004 identity, or get the unsigned register transaction',
  description:
    'Without erc8004_agent_id: the unsigned register(agentURI) transaction for the owner wallet. With it: the chain must show the owner wallet as the token’s owner (ownerOf) or its agentWallet. docs/erc8004.md.',
  tags: ['ERC-8004'],
  auth: ['bearer'],
  scopes: ['agents.write'],
  rateLimit: 'write',
  params: agentRef,
  body: linkBody,
  status: 200,
  response: linkResult,
  errors: {
    403: 'Not the owner, or the owner wallet does not own the token',
    404: 'Unknown agent',
    409: 'The identity is linked to another agent',
    422: 'Unknown token or unsupported registry',
  },
  handler: ({ caller, params, body }) => linkAgent(caller, params.id, body),
});
