// POST /api/v1/smart-money/wallets - add a wallet to the watch list
import { endpoint, reply } from '../../http/endpoint';
import { watchBody, watchResult } from '../../schemas/smart-money';
import { watchWallet } from '../../smart-money/wallets';

export default endpoint({
  method: 'post',
  path: '/api/v1/smart-money/wallets',
  summary: 'Track a wallet',
  description: 'The indexer records its Uniswap swaps from then on. An already tracked wallet answers 201 with created false.',
  tags: ['Smart money'],
  auth: ['bearer', 'api_key'],
  rateLimit: 'write',
  body: watchBody,
  status: 201,
  response: watchResult,
  errors: { 409: 'The watch list is full' },
  async handler({ caller, body }) {
    return reply(201, { watching: true as const, ...(await watchWallet(caller, body.wallet_address, body.label)) });
  },
});
