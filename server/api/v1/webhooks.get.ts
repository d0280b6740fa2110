// GET /api/v1/webhooks - the caller's webhooks (family B)
import { endpoint } from '../../http/endpoint';
import { webhookList } from '../../schemas/webhook';
import { listWebhooks } from '../../webhooks/list-webhooks';

export default endpoint({
  method: 'get',
  path: '/api/v1/webhooks',
  summary: 'The caller’s webhooks',
  tags: ['Webhooks'],
  auth: ['bearer', 'api_key'],
  scopes: ['webhooks.manage'],
  status: 200,
  response: webhookList,
  handler: ({ caller }) => listWebhooks(caller.wallet),
});
