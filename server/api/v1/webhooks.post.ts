// POST /api/v1/webhooks - subscribe a URL to events (family B)
import { endpoint } from '../../http/endpoint';
import { webhookBody, createdWebhook } from '../../schemas/webhook';
import { createWebhook } from '../../webhooks/create-webhook';

export default endpoint({
  method: 'post',
  path: '/api/v1/webhooks',
  summary: 'Subscribe an https URL to events',
  description:
    'The url must be https (http on testnet only) and public. Tier-gated events (smart_money.*, skill.installed) need the entry tier (403). ' +
    'Without `secret` the server generates one and returns it once. Deliveries: docs/events.md.',
  tags: ['Webhooks'],
  auth: ['bearer', 'api_key'],
  scopes: ['webhooks.manage'],
  rateLimit: 'write',
  body: webhookBody.omit({ wallet_address: true, message: true, signature: true }),
  status: 201,
  response: createdWebhook,
  errors: {
    403: 'An event needs the entry tier or above',
    409: 'The wallet has the maximum number of webhooks',
  },
  handler: ({ body, caller }) => createWebhook(caller.wallet, { url: body.url, events: body.events, secret: body.secret }),
});
