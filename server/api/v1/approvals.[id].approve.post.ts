// POST /api/v1/approvals/{id}/approve - the owner wallet's signed decision on a pending spend
import { approvalAction, approvalSigner, decideApproval } from '../../credits/spend-approvals';
import { endpoint } from '../../http/endpoint';
import { approvalDecisionBody, approvalRef, spendApproval } from '../../schemas/spend-policy';

export default endpoint({
  method: 'post',
  path: '/api/v1/approvals/{id}/approve',
  summary: 'Approve a pending spend (signed by the owner wallet)',
  description:
    'The body carries the owner wallet’s EIP-191 signature of the approval’s exact `approve_message` followed by a space and the current Unix time in seconds (within 5 minutes); each signed message is accepted once. No credential is needed or used: an agent holding an API key cannot decide its own spends.',
  tags: ['Credits'],
  auth: ['signed_body'],
  signer: ({ params }) => approvalSigner(params),
  signedAction: ({ params }) => approvalAction(params, 'approve'),
  rateLimit: 'write',
  params: approvalRef,
  body: approvalDecisionBody,
  status: 200,
  response: spendApproval,
  errors: {
    401: 'Not signed by the approval’s owner wallet',
    404: 'Unknown approval',
    409: 'The approval is no longer pending',
  },
  handler: ({ params }) => decideApproval(params, 'approve'),
});
