// GET /api/stats - live platform counters
import { endpoint } from '../../http/endpoint';
import { DIRECTORY_CACHE } from '../../http/response-cache';
import { platformStats as platformStatsSchema } from '../../schemas/stats';
import { platformStats } from '../../stats/platform-stats';

export default endpoint({
  method: 'get',
  path: '/api/stats',
  summary: 'Platform statistics',
  tags: ['Platform'],
  auth: 'none',
  cache: DIRECTORY_CACHE,
  status: 200,
  response: platformStatsSchema,
  handler: () => platformStats(),
});
