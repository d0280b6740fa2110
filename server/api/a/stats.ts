// GET /api/stats - live platform counters
import { endpoint } from '../../http/endpoint';
import { platformStats } from '../../stats/platform-stats';

export const statsEndpoint = endpoint({
  method: 'get',
  path: '/api/stats',
  summary: 'Platform statistics',
  tags: ['Platform'],
  auth: 'none',
  handler: () => platformStats(),
});
