// GET /api/v1/smart-money/wallets - tracked wallets (subscription or entry tier)
import { endpoint } from '../../http/endpoint';
import { walletList, walletsQueryB } from '../../schemas/smart-money';
import { requireLiveAccess } from '../../smart-money/access';
import { listWallets } from '../../smart-money/wallets';

export default endpoint({
  method: 'get',
  path: '/api/v1/smart-money/wallets',
  summary: 'Tracked smart-money wallets',
  description: 'Needs an active smart-money subscription or the entry tier.',
  tags: ['Smart money'],
  auth: ['bearer', 'api_key'],
  query: walletsQueryB,
  status: 200,
  response: walletList,
  errors: { 403: 'No subscription and below the entry tier (tier_required)' },
  async handler({ caller, query }) {
    await requireLiveAccess(caller);
    return { wallets: await listWallets(undefined, query.limit) };
  },
});
