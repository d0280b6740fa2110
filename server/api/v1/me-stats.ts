// GET /api/v1/agents/me/stats - the caller's balance, agent, activity and last transactions
import { meStats } from '../../agents/me-stats';
import { endpoint } from '../../http/endpoint';

export const meStatsEndpoint = endpoint({
  method: 'get',
  path: '/api/v1/agents/me/stats',
  summary: 'The caller’s stats (bearer token or X-Api-Key)',
  tags: ['Agents'],
  auth: ['bearer', 'api_key'],
  handler: ({ caller }) => meStats(caller),
});
