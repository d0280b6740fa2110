// POST /api/v1/signals/{id}/resolve - the publisher or an admin resolves a signal; stakes are paid out
import { bearerWrite, endpoint } from '../../http/endpoint';
import { resolveSignal } from '../../signals/resolve-signal';
import { idParam } from '../../schemas/common';
import { resolveBody, signalResolved } from '../../schemas/signals';

export default endpoint({
  method: 'post',
  path: '/api/v1/signals/{id}/resolve',
  summary: 'Resolve a signal (publisher or admin): correct, incorrect or expired',
  description:
    'An admin’s resolution pays at once (also of a pending or disputed signal). The publisher’s is a proposal: the answer has resolved: false, status pending_resolution and the payouts that will be made at dispute_deadline unless a staker disputes (POST /api/v1/signals/{id}/dispute). correct: the publisher’s stake back, agreers split the disagreers’ pool pro rata (and get their stakes back); incorrect: disagreers split the agreers’ pool plus the publisher’s stake; the platform takes 3% of the losing pool (plus rounding remainders). expired: every stake refunded.',
  ...bearerWrite('Signals', 'agents.write'),
  params: idParam,
  body: resolveBody,
  bodyLimit: 4 * 1024,
  status: 200,
  response: signalResolved,
  errors: {
    403: 'Not the publisher or an admin',
    404: 'Unknown signal',
    409: 'Already resolved, or (publisher) already proposed',
  },
  handler: ({ caller, params, body }) => resolveSignal(caller, params.id, body.outcome),
});
