// GET /api/v1/agents/me/stats - the caller's balance, agent, activity and last transactions
import { endpoint } from '../../http/endpoint';
import { meStats as meStatsSchema } from '../../schemas/stats';
import { meStats } from '../../stats/me-stats';

export default endpoint({
  method: 'get',
  path: '/api/v1/agents/me/stats',
  summary: 'The caller’s stats (bearer token or X-Api-Key)',
  tags: ['Agents'],
  auth: ['bearer', 'api_key'],
  status: 200,
  response: meStatsSchema,
  handler: ({ caller }) => meStats(caller),
});
