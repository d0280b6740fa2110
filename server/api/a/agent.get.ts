// GET /api/agent?wallet= - the agent of a wallet (family A)
import { z } from '@hono/zod-openapi';
import { primaryAgentOf } from '../../agents/find-agent';
import { ApiError } from '../../core/errors';
import { presentAgentsA } from '../../directory/agent-views';
import { DIRECTORY_CACHE } from '../../http/response-cache';
import { endpoint } from '../../http/endpoint';
import { agentA } from '../../schemas/agent';
import { walletAddress } from '../../schemas/common';

export default endpoint({
  method: 'get',
  path: '/api/agent',
  summary: 'Look up the agent of a wallet',
  tags: ['Agents'],
  auth: 'none',
  cache: DIRECTORY_CACHE,
  query: z.object({ wallet: walletAddress }),
  status: 200,
  response: agentA,
  errors: { 404: 'No agent for this wallet' },
  async handler({ query }) {
    const agent = await primaryAgentOf(query.wallet);
    if (!agent) throw ApiError.notFound('Agent');
    return (await presentAgentsA([agent]))[0]!;
  },
});
