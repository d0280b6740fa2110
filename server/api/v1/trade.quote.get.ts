// GET /api/v1/trade/quote - a Uniswap quote valid 30 s, with the unsigned swap for the caller
import { endpoint } from '../../http/endpoint';
import { quoteQuery, tradeQuote } from '../../schemas/trade';
import { quote } from '../../trade/quote';

export default endpoint({
  method: 'get',
  path: '/api/v1/trade/quote',
  summary: 'Quote a swap (valid 30 s)',
  description:
    'Uniswap V3 QuoterV2 over the fee tiers 100/500/3000/10000 (or `fee`) and Uniswap V2, by eth_call on the chain; the best output wins. amount_out_min_raw applies slippage_bps (default 50). `transaction` is the swap for the caller’s wallet to sign and relay through POST /api/v1/trade/swap.',
  tags: ['Trade'],
  auth: ['bearer', 'api_key'],
  query: quoteQuery,
  status: 200,
  response: tradeQuote,
  errors: {
    422: 'No pool can fill the swap (details.reason no_route) or a token that is not an ERC-20',
    502: 'The chain node answered with an error (chain_error)',
    503: 'No chain, or the node cannot be reached (chain_unavailable, Retry-After)',
    504: 'The chain node did not answer within the time limit (chain_timeout)',
  },
  handler: ({ caller, query }) =>
    quote({
      tokenIn: query.token_in,
      tokenOut: query.token_out,
      amountIn: query.amount_in,
      amountInRaw: query.amount_in_raw,
      fee: query.fee,
      slippageBps: query.slippage_bps,
      recipient: caller.wallet,
    }),
});
