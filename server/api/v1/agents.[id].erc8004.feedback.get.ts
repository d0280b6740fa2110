// GET /api/v1/agents/{id}/erc8004/feedback - on-chain ERC-8004 feedback of the agent's linked identity
import { endpoint } from '../../http/endpoint';
import { agentRef } from '../../schemas/common';
import { feedbackList, feedbackListQuery } from '../../schemas/erc8004';
import { agentFeedback } from '../../erc8004/feedback';

export default endpoint({
  method: 'get',
  path: '/api/v1/agents/{id}/erc8004/feedback',
  summary: 'On-chain ERC-8004 feedback of the agent’s linked identity, newest first',
  description:
    'Indexed NewFeedback/FeedbackRevoked; `evidence` marks reviewers with a paid call or a completed job with the agent.',
  tags: ['ERC-8004'],
  auth: 'optional',
  params: agentRef,
  query: feedbackListQuery,
  status: 200,
  response: feedbackList,
  errors: { 404: 'Unknown agent' },
  handler: ({ params, query }) => agentFeedback(params.id, query.limit),
});
