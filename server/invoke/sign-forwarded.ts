import { createHash } from 'node:crypto';
import type { Queryable } from '../core/db/sql-runner';
import { activeRouterKey, SIGNATURE_LIFETIME_S, type SigningKey } from './router-keys';

// RFC 9421 HTTP Message Signatures on every request the router forwards: a target verifies with
// the keys at GET /api/v1/router/jwks that the call came through the router, unchanged, and that
// the X-Service-* identity headers are the router's (docs/verifying-routed-calls.md).
//
// The signature base is written here rather than by a general library: every covered component is a
// plain field or @method / @target-uri and every parameter a string or an integer, so the base is a few
// lines of text. A general signer parsed and re-serialized each name and value as structured fields, a
// fifth of the router's CPU per paid call (issue 22, item 2); sign-forwarded.test.ts checks that the
// output is byte for byte what the http-message-signatures library makes, and that it verifies.

/** The label of the router's signature in Signature / Signature-Input. */
export const SIGNATURE_LABEL = 'vouchsafe';
/** The `tag` parameter: what the signature is for. */
export const SIGNATURE_TAG = 'vouchsafe-router';

/** RFC 9530 Content-Digest of a body (sha-256). */
export function contentDigest(body: string | Buffer): string {
  return `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
}

/** An RFC 8941 sf-string (the parameters' values: key ids, nonces, tags). */
function sfString(value: string): string {
  if (!/^[\x20-\x7e]*$/.test(value)) throw new Error('a signature parameter must be printable ASCII');
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** A field's value as RFC 9421 section 2.1 covers it (no `sf`, `bs` or `key`): trimmed, obs-fold removed. */
function fieldValue(value: string): string {
  return value.trim().replace(/\n\s*/g, ' ');
}

export interface ForwardedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  nonce: string;
}

/**
 * Returns `headers` with Content-Digest, Signature-Input and Signature added. Covered: @method,
 * @target-uri, content-digest, content-type and every x-service-* header present; parameters
 * created, expires, keyid, alg, nonce (the invocation id) and tag.
 */
export function signWithKey(request: ForwardedRequest, key: SigningKey, now = Date.now()): Record<string, string> {
  const headers: Record<string, string> = { ...request.headers, 'content-digest': contentDigest(request.body) };
  const byName = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  const serviceHeaders = [...byName.keys()].filter((name) => name.startsWith('x-service-')).sort();
  const lines = [`"@method": ${request.method.toUpperCase()}`, `"@target-uri": ${request.url}`];
  for (const name of ['content-digest', 'content-type', ...serviceHeaders]) {
    const value = byName.get(name);
    if (value === undefined) throw new Error(`No header "${name}" found in headers`);
    lines.push(`"${name}": ${fieldValue(value)}`);
  }
  const created = Math.floor(now / 1000);
  const components = ['@method', '@target-uri', 'content-digest', 'content-type', ...serviceHeaders].map((n) => `"${n}"`);
  const signatureInput =
    `(${components.join(' ')});created=${created};expires=${created + SIGNATURE_LIFETIME_S}` +
    `;keyid=${sfString(key.kid)};alg="ed25519";nonce=${sfString(request.nonce)};tag=${sfString(SIGNATURE_TAG)}`;
  lines.push(`"@signature-params": ${signatureInput}`);
  const signature = key.sign(Buffer.from(lines.join('\n'))).toString('base64');
  return {
    ...headers,
    Signature: `${SIGNATURE_LABEL}=:${signature}:`,
    'Signature-Input': `${SIGNATURE_LABEL}=${signatureInput}`,
  };
}

/** signWithKey with the router's active key. */
export async function signForwardedRequest(request: ForwardedRequest, sql: Queryable): Promise<Record<string, string>> {
  return signWithKey(request, await activeRouterKey(sql));
}
