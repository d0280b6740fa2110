// GET /api/smart-money/preview - public sample events, webhook payloads and upgrade info
import { endpoint } from '../../http/endpoint';
import { SHORT_CACHE } from '../../http/response-cache';
import { smartMoneyPreview } from '../../schemas/smart-money';
import { smartMoneyPreview as preview } from '../../smart-money/preview';

export default endpoint({
  method: 'get',
  path: '/api/smart-money/preview',
  summary: 'Smart-money preview (public)',
  tags: ['Smart money'],
  auth: 'none',
  cache: SHORT_CACHE,
  status: 200,
  response: smartMoneyPreview,
  handler: async () => preview(),
});
