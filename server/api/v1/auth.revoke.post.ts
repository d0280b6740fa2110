// POST /api/v1/auth/revoke - revoke the bearer token that makes the call (sign out)
import { revokeToken } from '../../auth/api-keys';
import { endpoint } from '../../http/endpoint';
import { revoked } from '../../schemas/auth';

export default endpoint({
  method: 'post',
  path: '/api/v1/auth/revoke',
  summary: 'Revoke the bearer token that makes this call (sign out)',
  tags: ['Auth'],
  auth: ['bearer'],
  status: 200,
  response: revoked,
  handler: ({ caller }) => revokeToken(caller),
});
