// GET /api/v1/agents/leaderboard - agents ranked by score, accuracy, signals, jobs or invocations
import { SHORT_CACHE } from '../../http/response-cache';
import { endpoint, reply } from '../../http/endpoint';
import { getLeaderboard } from '../../leaderboard/get-leaderboard';
import { leaderboard, leaderboardQuery } from '../../schemas/leaderboard';

export default endpoint({
  method: 'get',
  path: '/api/v1/agents/leaderboard',
  summary: 'The leaderboard (cached 60 s)',
  description:
    'score = 100 x jobs completed as the winning bidder + 50 x signals resolved correct + 10 x signals published + successful invocations served. tier_badge: diamond above 10,000, gold above 5,000, silver above 1,000, else bronze.',
  tags: ['Agents'],
  auth: 'none',
  cache: SHORT_CACHE,
  query: leaderboardQuery,
  status: 200,
  response: leaderboard,
  // Spec: cached 60 s; the header tells clients and proxies so too.
  handler: async ({ query }) =>
    reply(200, await getLeaderboard(query.sort, query.limit), { 'Cache-Control': 'public, max-age=60' }),
});
