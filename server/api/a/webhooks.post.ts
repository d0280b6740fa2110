// POST /api/webhooks - subscribe a URL to events (family A; bearer, signature headers or a signed body)
import { endpoint } from '../../http/endpoint';
import { webhookBody, createdWebhook } from '../../schemas/webhook';
import { createWebhook } from '../../webhooks/create-webhook';

export default endpoint({
  method: 'post',
  path: '/api/webhooks',
  summary: 'Subscribe an https URL to events',
  description:
    'Authenticate with a bearer token (scope webhooks.manage), signature headers, or wallet_address + message + signature in the body, ' +
    'where the message is `Register webhook <url> <unix seconds>`. The url must be https (http on testnet only) and public. ' +
    'Tier-gated events (smart_money.*, skill.installed) need the entry tier (403). Without `secret` the server generates one and returns it once. ' +
    'Deliveries: docs/events.md.',
  tags: ['Webhooks'],
  auth: ['bearer', 'api_key', 'signature', 'signed_body'],
  scopes: ['webhooks.manage'],
  signedAction: ({ body }) => `Register webhook ${body.url}`,
  signer: 'wallet_address',
  rateLimit: 'write',
  body: webhookBody,
  status: 201,
  response: createdWebhook,
  errors: {
    403: 'An event needs the entry tier or above',
    409: 'The wallet has the maximum number of webhooks',
  },
  handler: ({ body, caller }) => createWebhook(caller.wallet, { url: body.url, events: body.events, secret: body.secret }),
});
