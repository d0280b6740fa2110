// POST /api/v1/signals/{id}/dispute - a staker disputes the publisher's proposed outcome; an admin decides
import { bearerWrite, endpoint } from '../../http/endpoint';
import { disputeSignal } from '../../signals/resolve-signal';
import { idParam } from '../../schemas/common';
import { signalDisputed } from '../../schemas/signals';

export default endpoint({
  method: 'post',
  path: '/api/v1/signals/{id}/dispute',
  summary: 'Dispute the publisher’s proposed outcome (stakers only, within the dispute window)',
  description:
    'A publisher’s resolution is only a proposal (status pending_resolution) until dispute_deadline. A wallet that staked on the signal may dispute it within that window: the signal becomes disputed, nothing is paid, and an admin resolves it (POST /api/v1/signals/{id}/resolve as an admin).',
  ...bearerWrite('Signals', 'agents.write'),
  params: idParam,
  status: 200,
  response: signalDisputed,
  errors: {
    403: 'Not a staker of the signal',
    404: 'Unknown signal',
    409: 'No proposed outcome to dispute, already disputed or resolved, or the window has closed',
  },
  handler: ({ caller, params }) => disputeSignal(caller, params.id),
});
