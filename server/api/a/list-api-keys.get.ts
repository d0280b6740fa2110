// GET /api/list-api-keys - the caller's API keys, never their secrets
import { listApiKeys } from '../../auth/api-keys';
import { endpoint } from '../../http/endpoint';
import { apiKeyList } from '../../schemas/api-key';

export default endpoint({
  method: 'get',
  path: '/api/list-api-keys',
  summary: 'List the caller’s API keys (never their secrets)',
  tags: ['API keys'],
  auth: ['bearer', 'signature'],
  scopes: ['api_keys.manage'],
  signedAction: () => 'List API keys',
  status: 200,
  response: apiKeyList,
  handler: ({ caller }) => listApiKeys(caller),
});
