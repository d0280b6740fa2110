// POST /api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver - send a finished delivery again (beyond the spec)
import { endpoint, reply } from '../../http/endpoint';
import { deliveryRef, webhookDelivery } from '../../schemas/webhook';
import { redeliver } from '../../webhooks/redeliver-webhook';

export default endpoint({
  method: 'post',
  path: '/api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver',
  summary: 'Send a delivered or failed delivery again',
  description: 'Starts a new series of attempts with the same event id; a disabled webhook is enabled again.',
  tags: ['Webhooks'],
  auth: ['bearer', 'api_key'],
  scopes: ['webhooks.manage'],
  rateLimit: 'write',
  params: deliveryRef,
  status: 202,
  response: webhookDelivery,
  errors: { 404: 'No such webhook or delivery of the caller', 409: 'The delivery is still pending' },
  handler: async ({ params, caller }) => reply(202, await redeliver(caller.wallet, params.id, params.delivery_id)),
});
