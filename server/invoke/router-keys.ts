import { createHash, createPrivateKey, generateKeyPairSync, sign as edSign, type KeyObject } from 'node:crypto';
import type { Queryable as SqlRunner } from '../core/db/sql-runner';
import { sharedCache } from '../core/shared-state';

// The router's Ed25519 keys for RFC 9421 HTTP Message Signatures on forwarded calls. One key is
// active; it is generated on first use (whichever instance comes first: a partial unique index
// allows one active key). Rotation retires it and makes a new one; a retired key stays in the
// JWKS until every signature it can have made has expired (its signature lifetime plus the time
// an instance may keep using a cached key).

/** How long a forwarded request's signature is valid (`expires` - `created`). */
export const SIGNATURE_LIFETIME_S = 300;
/** The active key is replaced after this many days (scheduler job rotate-router-key). */
export const ROUTER_KEY_MAX_AGE_DAYS = 30;
/** How long an instance keeps using the active key it loaded. */
const ACTIVE_KEY_TTL_MS = 60_000;
/** How long a retired key stays published. */
export const RETIRED_KEY_LISTED_S = SIGNATURE_LIFETIME_S + ACTIVE_KEY_TTL_MS / 1000 + 60;

export interface PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

export interface SigningKey {
  kid: string;
  sign(data: Buffer): Buffer;
  /** The private key itself, for JOSE signers (signed A2A agent cards, server/a2a/). */
  privateKey: KeyObject;
}

const activeKey = sharedCache<SigningKey>('router.signing-key', { ttlMs: ACTIVE_KEY_TTL_MS, dropOn: [] });

function newKey(): { kid: string; jwk: PublicJwk; privatePem: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const x = publicKey.export({ format: 'jwk' }).x!;
  // RFC 7638 thumbprint of the public key as the key id.
  const kid = createHash('sha256')
    .update(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x }))
    .digest('base64url');
  return {
    kid,
    jwk: { kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' },
    privatePem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };
}

function toSigningKey(kid: string, privatePem: string): SigningKey {
  const key: KeyObject = createPrivateKey(privatePem);
  return { kid, sign: (data) => edSign(null, data, key), privateKey: key };
}

async function loadActive(sql: SqlRunner): Promise<SigningKey> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const rows = await sql.query<{ kid: string; private_key: string }>(
      `SELECT kid, private_key FROM router_keys WHERE retired_at IS NULL LIMIT 1`,
    );
    if (rows[0]) return toSigningKey(rows[0].kid, rows[0].private_key);
    const key = newKey();
    await sql.query(
      `INSERT INTO router_keys (kid, public_jwk, private_key) VALUES ($1, $2::jsonb, $3)
       ON CONFLICT DO NOTHING`,
      [key.kid, JSON.stringify(key.jwk), key.privatePem],
    );
  }
  throw new Error('no active router key');
}

/** The key that signs forwarded requests now. */
export function activeRouterKey(sql: SqlRunner): Promise<SigningKey> {
  return activeKey().get('active', () => loadActive(sql));
}

/** Retires the active key (it stays published until its signatures expire) and makes a new one. */
export async function rotateRouterKey(sql: SqlRunner): Promise<string> {
  await sql.query(`UPDATE router_keys SET retired_at = now() WHERE retired_at IS NULL`);
  activeKey().clear();
  const key = await activeRouterKey(sql);
  return key.kid;
}

/** Rotates when the active key is older than `maxAgeDays`; drops keys no longer published. */
export async function rotateRouterKeyIfOld(sql: SqlRunner, maxAgeDays: number): Promise<void> {
  const rows = await sql.query<{ old: boolean }>(
    `SELECT created_at < now() - make_interval(days => $1::int) AS old FROM router_keys WHERE retired_at IS NULL`,
    [maxAgeDays],
  );
  if (rows[0]?.old) await rotateRouterKey(sql);
  await sql.query(`DELETE FROM router_keys WHERE retired_at < now() - make_interval(secs => $1::int)`, [
    RETIRED_KEY_LISTED_S * 2,
  ]);
}

/** The public keys a target may see signatures from: the active one and recently retired ones. */
export async function routerJwks(sql: SqlRunner): Promise<{ keys: PublicJwk[] }> {
  await activeRouterKey(sql);
  const rows = await sql.query<{ public_jwk: PublicJwk }>(
    `SELECT public_jwk FROM router_keys
     WHERE retired_at IS NULL OR retired_at > now() - make_interval(secs => $1::int)
     ORDER BY created_at DESC`,
    [RETIRED_KEY_LISTED_S],
  );
  return { keys: rows.map((row) => row.public_jwk) };
}
