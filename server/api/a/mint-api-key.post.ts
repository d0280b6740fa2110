// POST /api/mint-api-key - create an API key; the secret is shown once
import { mintApiKey } from '../../auth/api-keys';
import { endpoint } from '../../http/endpoint';
import { apiKeyCreated, mintApiKeyBody } from '../../schemas/api-key';

export default endpoint({
  method: 'post',
  path: '/api/mint-api-key',
  summary: 'Create an API key; the secret is shown once',
  description:
    'Without `scopes`, the key gets the read scopes only (docs/spec-decisions.md). A key minted by bearer token or API key never gets more than that credential holds; one minted with signature headers (the wallet itself) may get any scope.',
  tags: ['API keys'],
  auth: ['bearer', 'signature'],
  scopes: ['api_keys.manage'],
  signedAction: ({ body }) => `Mint API key ${body.label}`,
  rateLimit: 'write',
  body: mintApiKeyBody,
  status: 201,
  response: apiKeyCreated,
  errors: { 403: 'A requested scope is beyond the calling bearer token or API key' },
  handler: ({ caller, body }) => mintApiKey(caller, body),
});
