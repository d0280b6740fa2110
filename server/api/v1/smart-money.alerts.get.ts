// GET /api/v1/smart-money/alerts - alerts above min_usd (subscription or entry tier)
import { endpoint } from '../../http/endpoint';
import { alertList, alertsQueryB } from '../../schemas/smart-money';
import { requireLiveAccess } from '../../smart-money/access';
import { listAlerts } from '../../smart-money/feed';

export default endpoint({
  method: 'get',
  path: '/api/v1/smart-money/alerts',
  summary: 'Smart-money alerts of at least min_usd (default 10000)',
  description: 'Needs an active smart-money subscription or the entry tier.',
  tags: ['Smart money'],
  auth: ['bearer', 'api_key'],
  query: alertsQueryB,
  status: 200,
  response: alertList,
  errors: { 403: 'No subscription and below the entry tier (tier_required)' },
  async handler({ caller, query }) {
    await requireLiveAccess(caller);
    return {
      alerts: await listAlerts({ minUsd: query.min_usd, action: query.action, limit: query.limit }),
      min_usd: query.min_usd,
    };
  },
});
