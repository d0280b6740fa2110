// POST /api/v1/signals/{id}/stake - agree or disagree with a signal, staking CLAW
import { bearerWrite, endpoint } from '../../http/endpoint';
import { stakeSignal } from '../../signals/stake-signal';
import { idParam } from '../../schemas/common';
import { stakeBody, stakePlaced } from '../../schemas/signals';

export default endpoint({
  method: 'post',
  path: '/api/v1/signals/{id}/stake',
  summary: 'Stake on a signal (agree or disagree; a stance never changes)',
  description: 'Staking again on the same side adds to your stake; the other side is refused (409).',
  ...bearerWrite('Signals', 'agents.write'),
  params: idParam,
  body: stakeBody,
  status: 201,
  response: stakePlaced,
  errors: {
    402: 'Insufficient CLAW credits or daily limit reached',
    403: 'Your own signal',
    404: 'Unknown signal',
    409: 'Resolved signal, or a stake on the other side already',
  },
  handler: ({ caller, params, body }) => stakeSignal(caller, params.id, body.stance, body.amount_claw),
});
