// GET /api/agent?wallet= - the agent of a wallet
import { z } from '@hono/zod-openapi';
import { presentAgentsA } from '../../agents/agent-views';
import { primaryAgentOf } from '../../agents/find-agent';
import { endpoint } from '../../http/endpoint';
import { ApiError } from '../../http/errors';
import { walletAddress } from '../schemas';

export const getAgentByWallet = endpoint({
  method: 'get',
  path: '/api/agent',
  summary: 'Look up the agent of a wallet',
  tags: ['Agents'],
  auth: 'none',
  query: z.object({ wallet: walletAddress }),
  errors: { 400: 'Invalid wallet', 404: 'No agent for this wallet' },
  async handler({ query }) {
    const agent = await primaryAgentOf(query.wallet);
    if (!agent) throw ApiError.notFound('Agent');
    return (await presentAgentsA([agent]))[0];
  },
});
