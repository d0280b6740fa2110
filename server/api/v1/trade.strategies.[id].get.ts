// GET /api/v1/trade/strategies/{id} - one of the caller's strategies with its recent executions
import { endpoint } from '../../http/endpoint';
import { idParam } from '../../schemas/common';
import { strategyDetail } from '../../schemas/trade';
import { getStrategy } from '../../trade/get-strategy';

export default endpoint({
  method: 'get',
  path: '/api/v1/trade/strategies/{id}',
  summary: 'A strategy with its 20 most recent executions',
  tags: ['Trade'],
  auth: ['bearer'],
  params: idParam,
  status: 200,
  response: strategyDetail,
  errors: { 404: 'Unknown strategy (or another wallet’s)' },
  handler: ({ caller, params }) => getStrategy(caller, params.id),
});
