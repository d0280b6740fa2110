// PATCH /api/v1/api-keys/{id} - change one of the caller's API keys' spend policy
import { patchApiKey } from '../../auth/api-keys';
import { endpoint } from '../../http/endpoint';
import { apiKey } from '../../schemas/api-key';
import { idParam } from '../../schemas/common';
import { patchApiKeyBody } from '../../schemas/spend-policy';

export default endpoint({
  method: 'patch',
  path: '/api/v1/api-keys/{id}',
  summary: 'Change an API key’s spend policy',
  description:
    '`spend_policy`: `allowed_payees` (agent ids or wallets; null: any), `max_claw_per_call`, `approval_above_claw` (null clears; an absent field is kept). Set by the wallet itself (signature headers, the web session) or by a credential that no spend policy constrains; 403 for a credential under a policy. docs/payments.md, Spend policies.',
  tags: ['API keys'],
  auth: ['bearer', 'signature'],
  scopes: ['api_keys.manage'],
  signedAction: ({ params }) => `Update API key ${params.id}`,
  rateLimit: 'write',
  params: idParam,
  body: patchApiKeyBody,
  status: 200,
  response: apiKey,
  errors: { 403: 'A credential under a spend policy cannot change one', 404: 'Unknown key, or another wallet’s' },
  handler: ({ caller, params, body }) => patchApiKey(caller, params.id, body),
});
