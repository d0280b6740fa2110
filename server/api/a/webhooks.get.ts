// GET /api/webhooks - the caller's webhooks (family A)
import { endpoint } from '../../http/endpoint';
import { webhookList } from '../../schemas/webhook';
import { listWebhooks } from '../../webhooks/list-webhooks';

export default endpoint({
  method: 'get',
  path: '/api/webhooks',
  summary: 'The caller’s webhooks',
  tags: ['Webhooks'],
  auth: ['bearer', 'api_key'],
  scopes: ['webhooks.manage'],
  status: 200,
  response: webhookList,
  handler: ({ caller }) => listWebhooks(caller.wallet),
});
