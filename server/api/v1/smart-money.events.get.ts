// GET /api/v1/smart-money/events - smart-money events (subscription or entry tier)
import { endpoint } from '../../http/endpoint';
import { eventList, eventsQueryB } from '../../schemas/smart-money';
import { requireLiveAccess } from '../../smart-money/access';
import { listEvents } from '../../smart-money/feed';

export default endpoint({
  method: 'get',
  path: '/api/v1/smart-money/events',
  summary: 'Smart-money events, newest first (limit max 50)',
  description:
    'Live data: needs an active smart-money subscription or the entry tier (spec: live data needs a tier or a subscription).',
  tags: ['Smart money'],
  auth: ['bearer', 'api_key'],
  query: eventsQueryB,
  status: 200,
  response: eventList,
  errors: { 403: 'No subscription and below the entry tier (tier_required)' },
  async handler({ caller, query }) {
    await requireLiveAccess(caller);
    return {
      events: await listEvents({
        wallet: query.wallet,
        since: query.since ? new Date(query.since) : undefined,
        limit: query.limit,
      }),
    };
  },
});
