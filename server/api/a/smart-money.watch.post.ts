// POST /api/smart-money/watch - add a wallet to the watch list
import { endpoint, reply } from '../../http/endpoint';
import { watchBody, watchResult } from '../../schemas/smart-money';
import { watchWallet } from '../../smart-money/wallets';

export default endpoint({
  method: 'post',
  path: '/api/smart-money/watch',
  summary: 'Track a wallet',
  description:
    'The indexer records its Uniswap swaps from then on. An already tracked wallet answers 201 with created false. The list is shared: each wallet may add at most 100 entries (409 past that).',
  tags: ['Smart money'],
  auth: ['bearer', 'api_key'],
  scopes: ['smart_money.watch'],
  rateLimit: 'write',
  body: watchBody,
  status: 201,
  response: watchResult,
  errors: { 409: 'The watch list is full, or the caller’s wallet has added its quota of entries' },
  async handler({ caller, body }) {
    return reply(201, { watching: true as const, ...(await watchWallet(caller, body.wallet_address, body.label)) });
  },
});
