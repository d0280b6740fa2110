// GET /api/v1/webhooks/{id}/deliveries - attempts of one of the caller's webhooks (beyond the spec)
import { z } from '@hono/zod-openapi';
import { endpoint } from '../../http/endpoint';
import { webhookDeliveryList, webhookRef } from '../../schemas/webhook';
import { listDeliveries } from '../../webhooks/list-deliveries';

export default endpoint({
  method: 'get',
  path: '/api/v1/webhooks/{id}/deliveries',
  summary: 'Deliveries of one of the caller’s webhooks, newest first',
  description: 'Each delivery is one event to this webhook: status, attempts, last response code or error, next attempt time.',
  tags: ['Webhooks'],
  auth: ['bearer', 'api_key'],
  scopes: ['webhooks.manage'],
  params: webhookRef,
  query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(50) }),
  status: 200,
  response: webhookDeliveryList,
  errors: { 404: 'No such webhook of the caller' },
  handler: ({ params, query, caller }) => listDeliveries(caller.wallet, params.id, query.limit),
});
