// GET /api/smart-money/alerts - recent alerts as a bare array (entry tier or subscription)
import { endpoint } from '../../http/endpoint';
import { alertArray } from '../../schemas/smart-money';
import { requireLiveAccess } from '../../smart-money/access';
import { listAlerts } from '../../smart-money/feed';

export default endpoint({
  method: 'get',
  path: '/api/smart-money/alerts',
  summary: 'Recent smart-money alerts (bare array, newest 50)',
  description: 'Needs the entry tier or an active smart-money subscription.',
  tags: ['Smart money'],
  auth: ['bearer', 'api_key'],
  status: 200,
  response: alertArray,
  errors: { 403: 'Below the entry tier without a subscription (tier_required)' },
  async handler({ caller }) {
    await requireLiveAccess(caller);
    return listAlerts({ limit: 50 });
  },
});
