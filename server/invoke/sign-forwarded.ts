import { createHash } from 'node:crypto';
import { httpbis } from 'http-message-signatures';
import type { Queryable } from '../core/db/sql-runner';
import { activeRouterKey, SIGNATURE_LIFETIME_S } from './router-keys';

// RFC 9421 HTTP Message Signatures on every request the router forwards: a target verifies with
// the keys at GET /api/v1/router/jwks that the call came through the router, unchanged, and that
// the X-Service-* identity headers are the router's (docs/verifying-routed-calls.md).

/** The label of the router's signature in Signature / Signature-Input. */
export const SIGNATURE_LABEL = 'vouchsafe';
/** The `tag` parameter: what the signature is for. */
export const SIGNATURE_TAG = 'vouchsafe-router';

/** RFC 9530 Content-Digest of a body (sha-256). */
export function contentDigest(body: string | Buffer): string {
  return `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
}

/**
 * Returns `headers` with Content-Digest, Signature-Input and Signature added. Covered: @method,
 * @target-uri, content-digest, content-type and every x-service-* header present; parameters
 * created, expires, keyid, alg, nonce (the invocation id) and tag.
 */
export async function signForwardedRequest(
  request: { method: string; url: string; headers: Record<string, string>; body: string; nonce: string },
  sql: Queryable,
): Promise<Record<string, string>> {
  const key = await activeRouterKey(sql);
  const headers: Record<string, string> = { ...request.headers, 'content-digest': contentDigest(request.body) };
  const serviceHeaders = Object.keys(headers)
    .map((name) => name.toLowerCase())
    .filter((name) => name.startsWith('x-service-'))
    .sort();
  const created = new Date(Math.floor(Date.now() / 1000) * 1000);
  const signed = await httpbis.signMessage(
    {
      key: { id: key.kid, alg: 'ed25519', sign: async (data: Buffer) => key.sign(data) },
      name: SIGNATURE_LABEL,
      fields: ['@method', '@target-uri', 'content-digest', 'content-type', ...serviceHeaders],
      params: ['created', 'expires', 'keyid', 'alg', 'nonce', 'tag'],
      paramValues: {
        created,
        expires: new Date(created.getTime() + SIGNATURE_LIFETIME_S * 1000),
        nonce: request.nonce,
        tag: SIGNATURE_TAG,
      },
    },
    { method: request.method, url: request.url, headers },
  );
  return signed.headers as Record<string, string>;
}
