// PATCH /api/v1/trade/strategies/{id} - pause, resume or cancel a strategy
import { endpoint } from '../../http/endpoint';
import { idParam } from '../../schemas/common';
import { patchStrategyBody, strategy } from '../../schemas/trade';
import { setStrategyStatus } from '../../trade/set-strategy-status';

export default endpoint({
  method: 'patch',
  path: '/api/v1/trade/strategies/{id}',
  summary: 'Set a strategy’s status (active, paused, cancelled)',
  description: 'active <-> paused; active or paused -> cancelled (final). A cancelled or completed strategy cannot change (409).',
  tags: ['Trade'],
  auth: ['bearer'],
  scopes: ['agents.invoke'],
  rateLimit: 'write',
  params: idParam,
  body: patchStrategyBody,
  status: 200,
  response: strategy,
  errors: { 404: 'Unknown strategy (or another wallet’s)', 409: 'Transition not allowed' },
  handler: ({ caller, params, body }) => setStrategyStatus(caller, params.id, body.status),
});
