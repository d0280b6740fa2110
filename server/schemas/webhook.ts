import { z } from '@hono/zod-openapi';
import { timestamp } from './common';
import { eventName } from './events';

// Webhook subscriptions and their deliveries (spec: Webhook; Events, Webhooks).

export const webhook = z
  .strictObject({
    id: z.uuid(),
    url: z.string(),
    events: z.array(eventName),
    is_active: z.boolean(),
    delivery_count: z.number().int(),
    last_delivered_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .openapi('Webhook');

/** The 201 answer: the record, plus the signing secret when the server generated it (shown once). */
export const createdWebhook = z
  .strictObject({
    ...webhook.shape,
    secret: z.string().optional().openapi({
      description: 'Present only when no secret was sent: the generated signing secret, shown this once',
    }),
  })
  .openapi('CreatedWebhook');

export const webhookList = z.strictObject({ webhooks: z.array(webhook) }).openapi('WebhookList');

export const webhookBody = z.object({
  url: z.string().min(1).max(2048).openapi({ description: 'https URL (http on testnet only)' }),
  events: z
    .array(eventName)
    .min(1)
    .max(20)
    .transform((names) => [...new Set(names)]),
  secret: z
    .string()
    .min(1)
    .max(256)
    .optional()
    .openapi({ description: 'HMAC key (its UTF-8 bytes); when omitted the server generates one and returns it once' }),
  // family A: authenticate by a wallet signature of `Register webhook <url> <unix seconds>` instead of a bearer token
  wallet_address: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/)
    .optional(),
  message: z.string().max(1000).optional(),
  signature: z.string().max(1000).optional(),
});

export const webhookRef = z.object({ id: z.uuid().openapi({ description: 'Webhook id' }) });
export const deliveryRef = z.object({ id: z.uuid(), delivery_id: z.uuid() });

export const webhookDelivery = z
  .strictObject({
    id: z.uuid(),
    webhook_id: z.uuid(),
    event_id: z.string().openapi({ description: 'The event envelope id (evt_...)' }),
    event: eventName,
    status: z.enum(['pending', 'delivering', 'delivered', 'failed']),
    attempts: z.number().int(),
    response_code: z.number().int().nullable(),
    error: z.string().nullable(),
    last_attempt_at: timestamp.nullable(),
    next_attempt_at: timestamp.nullable(),
    delivered_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .openapi('WebhookDelivery');

export const webhookDeliveryList = z.strictObject({ deliveries: z.array(webhookDelivery) }).openapi('WebhookDeliveryList');
