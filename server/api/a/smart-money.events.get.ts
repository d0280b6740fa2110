// GET /api/smart-money/events - smart-money events (entry tier or subscription)
import { endpoint } from '../../http/endpoint';
import { eventList, eventsQueryA } from '../../schemas/smart-money';
import { requireLiveAccess } from '../../smart-money/access';
import { listEvents } from '../../smart-money/feed';

export default endpoint({
  method: 'get',
  path: '/api/smart-money/events',
  summary: 'Smart-money events, newest first',
  description: 'Needs the entry tier or an active smart-money subscription.',
  tags: ['Smart money'],
  auth: ['bearer', 'api_key'],
  query: eventsQueryA,
  status: 200,
  response: eventList,
  errors: { 403: 'Below the entry tier without a subscription (tier_required)' },
  async handler({ caller, query }) {
    await requireLiveAccess(caller);
    return {
      events: await listEvents({ wallet: query.wallet, action: query.action, confidence: query.confidence, limit: query.limit }),
    };
  },
});
