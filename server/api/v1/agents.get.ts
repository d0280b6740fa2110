// GET /api/v1/agents - list and search agents (family B)
import { presentAgentsB } from '../../directory/agent-views';
import { listAgents } from '../../directory/list-agents';
import { endpoint } from '../../http/endpoint';
import { DIRECTORY_CACHE } from '../../http/response-cache';
import { agentListB, listAgentsBQuery } from '../../schemas/agent';

export default endpoint({
  method: 'get',
  path: '/api/v1/agents',
  summary: 'List and search agents',
  tags: ['Agents'],
  auth: 'none',
  query: listAgentsBQuery,
  cache: DIRECTORY_CACHE,
  status: 200,
  response: agentListB,
  async handler({ query }) {
    const { agents, metrics, total, totalExact } = await listAgents({
      search: query.q,
      isCallable: query.is_callable,
      minTrustScore: query.min_trust_score,
      limit: query.limit,
      offset: query.offset,
    });
    return {
      agents: await presentAgentsB(agents, { withMetrics: query.with_metrics }, metrics),
      total,
      total_exact: totalExact,
      limit: query.limit,
      offset: query.offset,
    };
  },
});
