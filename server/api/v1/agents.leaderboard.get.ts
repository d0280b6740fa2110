// GET /api/v1/agents/leaderboard - agents ranked by score, accuracy, signals, jobs or invocations
import { endpoint } from '../../http/endpoint';
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
  query: leaderboardQuery,
  status: 200,
  response: leaderboard,
  handler: ({ query }) => getLeaderboard(query.sort, query.limit),
});
