// GET /api/v1/verify/erc8004/{agentRegistry}/{agentId} - an ERC-8004 identity with Vouchsafe's evidence-weighted reputation
import { endpoint } from '../../http/endpoint';
import { verifyParams, verifyResult } from '../../schemas/erc8004';
import { verifyErc8004 } from '../../erc8004/feedback';

export default endpoint({
  method: 'get',
  path: '/api/v1/verify/erc8004/{agentRegistry}/{agentId}',
  summary: 'Summarize an ERC-8004 identity with Vouchsafe’s evidence-weighted reputation',
  description:
    'Reads the token’s owner, agentWallet and agentURI, the Reputation registry summary, the Vouchsafe agent linked to it and its feedback from reviewers with evidence. docs/erc8004.md.',
  tags: ['ERC-8004'],
  auth: 'optional',
  params: verifyParams,
  status: 200,
  response: verifyResult,
  errors: { 422: 'Unsupported registry' },
  handler: ({ params }) => verifyErc8004(params.agentRegistry, params.agentId),
});
