// POST /api/v1/approvals/{id}/reject - the owner wallet's signed decision on a pending spend (as approve)
import { approvalAction, decideApproval } from '../../credits/spend-approvals';
import { endpoint } from '../../http/endpoint';
import approve from './approvals.[id].approve.post';

const { tags, auth, signer, rateLimit, params, body, status, response, errors } = approve;

export default endpoint({
  method: 'post',
  path: '/api/v1/approvals/{id}/reject',
  summary: 'Reject a pending spend (signed by the owner wallet)',
  description: approve.description!.replace('`approve_message`', '`reject_message`'),
  tags,
  auth,
  signer,
  signedAction: ({ params }) => approvalAction(params, 'reject'),
  rateLimit,
  params,
  body,
  status,
  response,
  errors,
  handler: ({ params }) => decideApproval(params, 'reject'),
});
