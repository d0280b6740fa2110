import { z } from '@hono/zod-openapi';
import { isKnownScope } from '../core/scopes';
import { timestamp, uuid, withFields } from './common';
import { spendPolicy, spendPolicyInput } from './spend-policy';

// API keys (family A): the record never carries the secret, except once when minted.

export const apiKey = z
  .strictObject({
    key_id: z.uuid(),
    label: z.string(),
    prefix: z.string(),
    scopes: z.array(z.string()),
    status: z.enum(['active', 'revoked']),
    created_at: timestamp,
    last_used_at: timestamp.nullable(),
    revoked_at: timestamp.nullable(),
    spend_policy: spendPolicy,
  })
  .openapi('ApiKey');

export const apiKeyCreated = withFields(apiKey, {
  api_key: z.string().openapi({ description: 'The secret, shown once' }),
}).openapi('ApiKeyCreated');

export const apiKeyList = z.strictObject({ keys: z.array(apiKey) }).openapi('ApiKeyList');

export const apiKeyRevoked = withFields(apiKey, { revoked: z.literal(true) }).openapi('ApiKeyRevoked');

export const mintApiKeyBody = z.object({
  label: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[^\p{Cc}\p{Zl}\p{Zp}]*$/u, 'must be one line without control characters')
    .default('API key'),
  scopes: z.array(z.string().refine(isKnownScope, 'unknown scope')).max(50).optional(),
  spend_policy: spendPolicyInput.optional(),
});

export const revokeApiKeyBody = z.object({ key_id: uuid });
