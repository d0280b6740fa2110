// POST /api/revoke-api-key - revoke one of the caller's API keys at once
import { revokeApiKey } from '../../auth/api-keys';
import { endpoint } from '../../http/endpoint';
import { apiKeyRevoked, revokeApiKeyBody } from '../../schemas/api-key';

export default endpoint({
  method: 'post',
  path: '/api/revoke-api-key',
  summary: 'Revoke one of the caller’s API keys',
  tags: ['API keys'],
  auth: ['bearer', 'signature'],
  scopes: ['api_keys.manage'],
  signedAction: ({ body }) => `Revoke API key ${body.key_id}`,
  rateLimit: 'write',
  body: revokeApiKeyBody,
  status: 200,
  response: apiKeyRevoked,
  errors: { 404: 'No such key of this caller' },
  handler: ({ caller, body }) => revokeApiKey(caller, body.key_id),
});
