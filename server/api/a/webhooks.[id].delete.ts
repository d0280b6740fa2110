// DELETE /api/webhooks/{id} - remove one of the caller's webhooks (family A)
import { z } from '@hono/zod-openapi';
import { endpoint, reply } from '../../http/endpoint';
import { webhookRef } from '../../schemas/webhook';
import { deleteWebhook } from '../../webhooks/delete-webhook';

export default endpoint({
  method: 'delete',
  path: '/api/webhooks/{id}',
  summary: 'Delete one of the caller’s webhooks',
  tags: ['Webhooks'],
  auth: ['bearer', 'api_key'],
  scopes: ['webhooks.manage'],
  rateLimit: 'write',
  params: webhookRef,
  status: 204,
  response: z.null(),
  errors: { 404: 'No such webhook of the caller' },
  async handler({ params, caller }) {
    await deleteWebhook(caller.wallet, params.id);
    return reply(204, null);
  },
});
