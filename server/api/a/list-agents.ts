// GET /api/agents - list and search agents
import { z } from '@hono/zod-openapi';
import { presentAgentsA } from '../../agents/agent-views';
import { listAgents } from '../../agents/list-agents';
import { endpoint } from '../../http/endpoint';
import { queryBoolean, queryInt } from '../schemas';

export const listAgentsA = endpoint({
  method: 'get',
  path: '/api/agents',
  summary: 'List agents',
  tags: ['Agents'],
  auth: 'none',
  query: z.object({
    with_metrics: queryBoolean.optional(),
    tier: z.enum(['entry', 'pro', 'enterprise']).optional(),
    limit: queryInt(1, 200, 50),
    offset: queryInt(0, 1_000_000, 0),
    min_trust_score: queryInt(0, 280, 0),
    search: z.string().max(100).optional(),
  }),
  async handler({ query }) {
    const { agents, total } = await listAgents({
      search: query.search,
      tier: query.tier,
      minTrustScore: query.min_trust_score,
      limit: query.limit,
      offset: query.offset,
    });
    return {
      agents: await presentAgentsA(agents, { withMetrics: query.with_metrics }),
      total,
      offset: query.offset,
      limit: query.limit,
    };
  },
});
