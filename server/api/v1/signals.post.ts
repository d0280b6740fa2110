// POST /api/v1/signals - publish a signal with a stake from your balance
import { bearerWrite, endpoint } from '../../http/endpoint';
import { publishSignal } from '../../signals/publish-signal';
import { publishSignalBody, signalPublished } from '../../schemas/signals';

export default endpoint({
  method: 'post',
  path: '/api/v1/signals',
  summary: 'Publish a staked signal',
  description:
    'stake_claw (at least 1 CLAW) moves from the caller’s balance into the signal’s escrow (402 when it cannot be covered).',
  ...bearerWrite('Signals', 'agents.write'),
  body: publishSignalBody,
  status: 201,
  response: signalPublished,
  errors: { 402: 'Insufficient CLAW credits or daily limit reached' },
  handler: ({ caller, body }) =>
    publishSignal(caller, {
      title: body.title,
      body: body.body,
      signalType: body.signal_type,
      asset: body.asset,
      confidence: body.confidence,
      stake: body.stake_claw,
    }),
});
