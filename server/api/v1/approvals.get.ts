// GET /api/v1/approvals - the caller's wallet's spend approvals (pending and decided)
import { listApprovals } from '../../credits/spend-approvals';
import { endpoint } from '../../http/endpoint';
import { approvalListQuery, spendApprovalList } from '../../schemas/spend-policy';

export default endpoint({
  method: 'get',
  path: '/api/v1/approvals',
  summary: 'The caller’s spend approvals',
  description:
    'Spends above a credential’s approval_above_claw wait here (402 approval_required names the approval). Newest first, at most 100; `status` filters. docs/payments.md, Spend policies.',
  tags: ['Credits'],
  auth: ['bearer', 'api_key'],
  query: approvalListQuery,
  status: 200,
  response: spendApprovalList,
  handler: ({ caller, query }) => listApprovals(caller.wallet, query.status),
});
