// GET /api/agents - list and search agents (family A)
import { presentAgentsA } from '../../directory/agent-views';
import { listAgents } from '../../directory/list-agents';
import { endpoint } from '../../http/endpoint';
import { DIRECTORY_CACHE } from '../../http/response-cache';
import { agentListA, listAgentsAQuery } from '../../schemas/agent';

export default endpoint({
  method: 'get',
  path: '/api/agents',
  summary: 'List agents',
  tags: ['Agents'],
  auth: 'none',
  query: listAgentsAQuery,
  cache: DIRECTORY_CACHE,
  status: 200,
  response: agentListA,
  async handler({ query }) {
    const { agents, metrics, total, totalExact } = await listAgents({
      search: query.search,
      tier: query.tier,
      minTrustScore: query.min_trust_score,
      limit: query.limit,
      offset: query.offset,
    });
    return {
      agents: await presentAgentsA(agents, { withMetrics: query.with_metrics }, metrics),
      total,
      total_exact: totalExact,
      offset: query.offset,
      limit: query.limit,
    };
  },
});
