// GET /api/v1/trade/price - live prices of tokens (public)
import { getAddress, type Address } from 'viem';
import { endpoint } from '../../http/endpoint';
import { priceQuery, tradePrices } from '../../schemas/trade';
import { prices } from '../../trade/prices';

export default endpoint({
  method: 'get',
  path: '/api/v1/trade/price',
  summary: 'Live prices in ETH and USD',
  description:
    'Each token’s price is the best Uniswap quote of one whole token into WETH; USD per ETH from the stable-token pool (USD_STABLE_TOKEN), ETH_USD_PRICE, or the devnet reference (usd_method says which). null when no pool prices a token.',
  tags: ['Trade'],
  auth: 'none',
  query: priceQuery,
  status: 200,
  response: tradePrices,
  errors: { 502: 'The chain node failed', 503: 'No chain' },
  handler: ({ query }) => prices(query.tokens.map((token) => getAddress(token.toLowerCase()) as Address)),
});
