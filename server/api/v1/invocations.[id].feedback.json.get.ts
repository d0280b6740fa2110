// GET /api/v1/invocations/{id}/feedback.json - a signed ERC-8004 off-chain feedback file for a paid call
import { endpoint, reply } from '../../http/endpoint';
import { feedbackFile, feedbackFileQuery } from '../../schemas/erc8004';
import { invocationFeedbackFile } from '../../erc8004/feedback';
import { z } from '@hono/zod-openapi';

export default endpoint({
  method: 'get',
  path: '/api/v1/invocations/{id}/feedback.json',
  summary: 'A signed ERC-8004 feedback file for a paid call, ready for giveFeedback',
  description:
    'Public by design (it is the feedbackURI of on-chain feedback; the invocation id is unguessable). proofOfPayment points at this record; `signature` is a compact JWS by the router key (kid, jku). The X-Feedback-Hash header is keccak256 of the body, the feedbackHash. docs/erc8004.md.',
  tags: ['ERC-8004'],
  auth: 'none',
  params: z.object({ id: z.string().min(1).max(64) }),
  query: feedbackFileQuery,
  status: 200,
  response: feedbackFile,
  errors: { 404: 'Unknown invocation', 422: 'Not a paid successful call, or the agent is not linked' },
  async handler({ params, query }) {
    const file = await invocationFeedbackFile(params.id, {
      value: query.value ?? 100,
      value_decimals: query.value_decimals,
      tag1: query.tag1,
      tag2: query.tag2,
    });
    return reply(200, file.body, { 'X-Feedback-Hash': file.feedbackHash, 'Cache-Control': 'public, max-age=3600' });
  },
});
