// GET /api/v1/trade/tokens - the curated token list (public)
import { chain } from '../../chain/client';
import { endpoint } from '../../http/endpoint';
import { SHORT_CACHE } from '../../http/response-cache';
import { tradeTokenList } from '../../schemas/trade';
import { tradeTokens } from '../../trade/tokens';

export default endpoint({
  method: 'get',
  path: '/api/v1/trade/tokens',
  summary: 'The curated token list of the chain',
  description:
    'ETH, WETH, the platform token, the USD stable token and (devnet) the sample tokens; TRADE_TOKEN_LIST replaces the default.',
  tags: ['Trade'],
  auth: 'none',
  cache: SHORT_CACHE,
  status: 200,
  response: tradeTokenList,
  errors: { 503: 'No chain (chain_unavailable)' },
  async handler() {
    const tokens = await tradeTokens();
    return { chain_id: (await chain()).chainId, tokens, count: tokens.length };
  },
});
