// GET /api/graph/connections - the connection graph around a wallet, or its most trusted part
import { z } from '@hono/zod-openapi';
import { SerializedJson } from '../../http/common-headers';
import { DIRECTORY_CACHE } from '../../http/response-cache';
import { endpoint } from '../../http/endpoint';
import { queryInt, walletAddress } from '../../schemas/common';
import { graph } from '../../schemas/trust';
import { connectionGraphJson, type Graph } from '../../trust/connection-graph';

export default endpoint({
  method: 'get',
  path: '/api/graph/connections',
  summary: 'Connection graph',
  description:
    'Without wallet: the most trusted agents and the edges among them. Bounded: `truncated` says when nodes or edges were cut. ' +
    'Answers are cached up to 30 s (dropped on any trust or agent change); when too many graphs are being computed at once the answer is 503 with Retry-After.',
  tags: ['Trust'],
  auth: 'none',
  cache: DIRECTORY_CACHE,
  query: z.object({ wallet: walletAddress.optional(), depth: queryInt(1, 4, 2) }),
  status: 200,
  response: graph,
  errors: {
    404: 'No agent for this wallet',
    503: 'Too many graph computations in flight (service_unavailable, Retry-After), or the database is unavailable',
  },
  handler: async ({ query }) =>
    new SerializedJson<Graph>(await connectionGraphJson({ wallet: query.wallet, depth: query.depth })),
});
