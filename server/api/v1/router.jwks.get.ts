// GET /api/v1/router/jwks - the router's public keys for verifying forwarded calls (RFC 9421)
import { database } from '../../core/db';
import { endpoint, reply } from '../../http/endpoint';
import { routerJwks } from '../../invoke/router-keys';
import { jwks } from '../../schemas/router';

export default endpoint({
  method: 'get',
  path: '/api/v1/router/jwks',
  summary: 'The router’s public keys (JWKS) for verifying signed forwarded calls',
  description:
    'Every request the router forwards to an invoke_url carries an RFC 9421 HTTP Message Signature (Ed25519, label `vouchsafe`, tag `vouchsafe-router`) covering @method, @target-uri, content-digest, content-type and the X-Service-* headers. Look the signature’s keyid up here; a retired key stays listed until its last signature has expired. See docs/verifying-routed-calls.md.',
  tags: ['Platform'],
  auth: 'none',
  status: 200,
  response: jwks,
  async handler() {
    return reply(200, await routerJwks(database().sql), { 'Cache-Control': 'public, max-age=300' });
  },
});
