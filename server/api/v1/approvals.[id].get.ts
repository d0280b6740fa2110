// GET /api/v1/approvals/{id} - one spend approval of the caller's wallet (a waiting agent polls it)
import { getApproval } from '../../credits/spend-approvals';
import { endpoint } from '../../http/endpoint';
import { approvalRef, spendApproval } from '../../schemas/spend-policy';

export default endpoint({
  method: 'get',
  path: '/api/v1/approvals/{id}',
  summary: 'One spend approval',
  description: 'Once `approved`, retry the refused call (with a new Idempotency-Key): the retry uses the approval, once.',
  tags: ['Credits'],
  auth: ['bearer', 'api_key'],
  params: approvalRef,
  status: 200,
  response: spendApproval,
  errors: { 404: 'Unknown approval, or another wallet’s' },
  handler: ({ caller, params }) => getApproval(caller, params.id),
});
