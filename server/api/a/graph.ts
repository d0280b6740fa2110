// GET /api/graph/connections - the connection graph around a wallet, or its most trusted part
import { z } from '@hono/zod-openapi';
import { endpoint } from '../../http/endpoint';
import { connectionGraph } from '../../trust/connection-graph';
import { queryInt, walletAddress } from '../schemas';

export const graphEndpoint = endpoint({
  method: 'get',
  path: '/api/graph/connections',
  summary: 'Connection graph',
  description:
    'Without wallet: the most trusted agents and the edges among them. Bounded: `truncated` says when nodes or edges were cut.',
  tags: ['Trust'],
  auth: 'none',
  query: z.object({ wallet: walletAddress.optional(), depth: queryInt(1, 4, 2) }),
  errors: { 400: 'depth outside 1-4 or a bad wallet', 404: 'No agent for this wallet' },
  handler: ({ query }) => connectionGraph({ wallet: query.wallet, depth: query.depth }),
});
