// GET /api/list-api-keys, POST /api/mint-api-key, POST /api/revoke-api-key - the caller's API keys
import { z } from '@hono/zod-openapi';
import { listApiKeys, mintApiKey, revokeApiKey } from '../../auth/api-keys';
import { isKnownScope } from '../../auth/scopes';
import { endpoint } from '../../http/endpoint';
import { uuid } from '../schemas';

const AUTH = ['bearer', 'signature'] as const;

export const listApiKeysEndpoint = endpoint({
  method: 'get',
  path: '/api/list-api-keys',
  summary: 'List the caller’s API keys (never their secrets)',
  tags: ['API keys'],
  auth: AUTH,
  scopes: ['api_keys.manage'],
  handler: ({ caller }) => listApiKeys(caller),
});

export const mintApiKeyEndpoint = endpoint({
  method: 'post',
  path: '/api/mint-api-key',
  summary: 'Create an API key; the secret is shown once',
  tags: ['API keys'],
  auth: AUTH,
  scopes: ['api_keys.manage'],
  rateLimit: 'write',
  status: 201,
  body: z.object({
    label: z.string().trim().min(1).max(100).default('API key'),
    scopes: z.array(z.string().refine(isKnownScope, 'unknown scope')).max(50).optional(),
  }),
  errors: { 403: 'A requested scope is beyond the calling credential' },
  handler: ({ caller, body }) => mintApiKey(caller, body),
});

export const revokeApiKeyEndpoint = endpoint({
  method: 'post',
  path: '/api/revoke-api-key',
  summary: 'Revoke one of the caller’s API keys',
  tags: ['API keys'],
  auth: AUTH,
  scopes: ['api_keys.manage'],
  body: z.object({ key_id: uuid }),
  errors: { 404: 'No such key of this caller' },
  handler: ({ caller, body }) => revokeApiKey(caller, body.key_id),
});
