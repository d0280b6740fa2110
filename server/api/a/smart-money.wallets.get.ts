// GET /api/smart-money/wallets - tracked wallets (entry tier or subscription)
import { endpoint } from '../../http/endpoint';
import { walletList, walletsQueryA } from '../../schemas/smart-money';
import { requireLiveAccess } from '../../smart-money/access';
import { listWallets } from '../../smart-money/wallets';

export default endpoint({
  method: 'get',
  path: '/api/smart-money/wallets',
  summary: 'Tracked smart-money wallets',
  description: 'Needs the entry tier or an active smart-money subscription. search matches the address or the label.',
  tags: ['Smart money'],
  auth: ['bearer', 'api_key'],
  query: walletsQueryA,
  status: 200,
  response: walletList,
  errors: { 403: 'Below the entry tier without a subscription (tier_required)' },
  async handler({ caller, query }) {
    await requireLiveAccess(caller);
    return { wallets: await listWallets(query.search, query.limit) };
  },
});
