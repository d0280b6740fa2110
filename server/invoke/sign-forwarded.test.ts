import { createHash, generateKeyPairSync, sign, verify } from 'node:crypto';
import { httpbis } from 'http-message-signatures';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_LIFETIME_S, type SigningKey } from './router-keys';
import { SIGNATURE_LABEL, SIGNATURE_TAG, signWithKey } from './sign-forwarded';

// The router writes its RFC 9421 signatures itself (sign-forwarded.ts): they must be exactly what a
// general library makes of the same request, and verify with it.

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const key: SigningKey = { kid: 'k-"1"\\x', sign: (data) => sign(null, data, privateKey), privateKey };

const request = (extra: Record<string, string> = {}) => ({
  method: 'post',
  url: 'http://127.0.0.1:9/invoke?x=1&y=%20',
  body: JSON.stringify({ hello: 'wörld' }),
  nonce: '6f1c0c1e-6b9a-4d57-9a43-3c3f8c1c2d10',
  headers: {
    'content-type': 'application/json',
    'x-service-via': 'vouchsafe-router/1',
    'x-service-caller-wallet': '0xAbC',
    'x-service-trust-score': '  12 ',
    'x-service-invocation-id': '6f1c0c1e-6b9a-4d57-9a43-3c3f8c1c2d10',
    ...extra,
  },
});

async function librarySigned(input: ReturnType<typeof request>, now: number) {
  const headers = { ...input.headers, 'content-digest': `sha-256=:${createHash('sha256').update(input.body).digest('base64')}:` };
  const serviceHeaders = Object.keys(headers)
    .filter((name) => name.startsWith('x-service-'))
    .sort();
  const created = new Date(Math.floor(now / 1000) * 1000);
  const signed = await httpbis.signMessage(
    {
      key: { id: key.kid, alg: 'ed25519', sign: async (data: Buffer) => key.sign(data) },
      name: SIGNATURE_LABEL,
      fields: ['@method', '@target-uri', 'content-digest', 'content-type', ...serviceHeaders],
      params: ['created', 'expires', 'keyid', 'alg', 'nonce', 'tag'],
      paramValues: {
        created,
        expires: new Date(created.getTime() + SIGNATURE_LIFETIME_S * 1000),
        nonce: input.nonce,
        tag: SIGNATURE_TAG,
      },
    },
    { method: input.method, url: input.url, headers },
  );
  return signed.headers as Record<string, string>;
}

describe('signWithKey', () => {
  it('makes byte for byte the headers http-message-signatures makes, with or without the caller agent header', async () => {
    const now = 1_764_000_000_123;
    for (const input of [request(), request({ 'x-service-caller-agent-id': 'a1b2' })]) {
      expect(signWithKey(input, key, now)).toEqual(await librarySigned(input, now));
    }
  });

  it('verifies with the library, and fails once a covered header or the URL changes', async () => {
    const input = request({ 'x-service-caller-agent-id': 'a1b2' });
    const headers = signWithKey(input, key);
    const check = (message: { method: string; url: string; headers: Record<string, string> }) =>
      httpbis.verifyMessage(
        {
          requiredParams: ['created', 'expires', 'keyid', 'alg', 'nonce', 'tag'],
          keyLookup: async (params) =>
            params.keyid === key.kid
              ? { id: key.kid, algs: ['ed25519'], verify: async (data, signature) => verify(null, data, publicKey, signature) }
              : null,
        },
        message,
      );
    expect(await check({ method: 'POST', url: input.url, headers })).toBe(true);
    expect(
      await check({ method: 'POST', url: input.url, headers: { ...headers, 'x-service-caller-agent-id': 'other' } }).catch(
        () => false,
      ),
    ).toBe(false);
    expect(await check({ method: 'POST', url: 'http://127.0.0.1:9/other', headers }).catch(() => false)).toBe(false);
  });

  it('refuses a parameter that is not printable ASCII rather than sign something a target cannot parse', () => {
    expect(() => signWithKey({ ...request(), nonce: 'ünïcode' }, key)).toThrow(/printable ASCII/);
  });
});
