// GET /api/v1/trade/strategies - the caller's strategies
import { endpoint } from '../../http/endpoint';
import { strategyList } from '../../schemas/trade';
import { listStrategies } from '../../trade/list-strategies';

export default endpoint({
  method: 'get',
  path: '/api/v1/trade/strategies',
  summary: 'Your strategies',
  tags: ['Trade'],
  auth: ['bearer'],
  status: 200,
  response: strategyList,
  handler: ({ caller }) => listStrategies(caller),
});
