import { getAddress, isAddress, type Address } from 'viem';
import { database } from '../core/db';
import type { AuthMode, AuthSpec, Caller } from '../core/caller';
import { ApiError } from '../core/errors';
import { cachedCredential } from './credential-cache';
import { hashSecret, isWellFormedApiKey } from './credentials';
import { verifySignedMessage } from '../signatures/verify-signed-message';

/** The credentials read from the headers (the others, a signed body and a query token, are read with the input). */
type HeaderMode = Caller['via'];
const ORDER: HeaderMode[] = ['bearer', 'api_key', 'signature'];
const LABEL: Record<AuthMode, string> = {
  bearer: 'a bearer token',
  api_key: 'an X-Api-Key',
  signature: 'X-Agent-Address, X-Agent-Message and X-Message-Signature headers',
  signed_body: 'a wallet, message and signature in the body',
  query_token: 'a bearer token in the token query parameter',
};

interface CredentialRow {
  id: string;
  wallet: string;
  agent_pubkey: string | null;
  scopes: string[];
  max_spend_per_day: string | bigint | null;
  agent_id: string | null;
  agent_max_spend: string | bigint | null;
}

// The agent a credential acts for: the one with its agent_pubkey, else the wallet's oldest agent.
const AGENT_FOR_CREDENTIAL = `LEFT JOIN LATERAL (
    SELECT id, max_spend_per_day FROM agents
    WHERE owner_wallet = c.wallet
    ORDER BY COALESCE(agent_pubkey = c.agent_pubkey, false) DESC, created_at ASC, id ASC
    LIMIT 1
  ) a ON true`;

function unauthorized(message: string, details: Record<string, unknown> = {}): ApiError {
  return new ApiError('unauthorized', message, details);
}

/** The request headers read here (a web Request's, or the node door's view of node's). */
type RequestHeaders = Pick<Headers, 'get' | 'has'>;

function presentedModes(headers: RequestHeaders): HeaderMode[] {
  const modes: HeaderMode[] = [];
  if (headers.has('authorization')) modes.push('bearer');
  if (headers.has('x-api-key')) modes.push('api_key');
  if (headers.has('x-agent-address') || headers.has('x-agent-message') || headers.has('x-message-signature')) {
    modes.push('signature');
  }
  return modes;
}

/** The stricter of two optional daily limits (null is no limit). */
function stricter(...limits: (string | bigint | null | undefined)[]): bigint | null {
  const set = limits.filter((v): v is string | bigint => v !== null && v !== undefined).map(BigInt);
  return set.length ? set.reduce((a, b) => (a < b ? a : b)) : null;
}

function toCaller(via: HeaderMode, row: CredentialRow): Caller {
  return {
    via,
    wallet: getAddress(row.wallet),
    agentId: row.agent_id,
    agentPubkey: row.agent_pubkey,
    scopes: row.scopes,
    credentialId: row.id,
    maxSpendPerDay: stricter(row.max_spend_per_day, row.agent_max_spend),
  };
}

/** Resolves a bearer token to its caller, or null when unknown, expired or revoked. */
export function callerForToken(token: string): Promise<Caller | null> {
  const hash = hashSecret(token);
  return cachedCredential(`token:${hash}`, async () => {
    const [row] = await database().sql.query<CredentialRow & { expires_at: Date | string }>(
      `SELECT c.id, c.wallet, c.agent_pubkey, c.scopes, c.max_spend_per_day, c.expires_at,
         a.id AS agent_id, a.max_spend_per_day AS agent_max_spend
       FROM access_tokens c ${AGENT_FOR_CREDENTIAL}
       WHERE c.token_hash = $1 AND c.revoked_at IS NULL AND c.expires_at > now()`,
      [hash],
    );
    return row ? { caller: toCaller('bearer', row), expiresAt: new Date(row.expires_at).getTime() } : null;
  });
}

async function fromBearer(headers: RequestHeaders): Promise<Caller> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.get('authorization') ?? '');
  if (!match) throw unauthorized('The Authorization header must be "Bearer <token>"');
  const caller = await callerForToken(match[1]!);
  if (!caller) throw unauthorized('The bearer token is invalid, expired or revoked');
  return caller;
}

async function fromApiKey(headers: RequestHeaders): Promise<Caller> {
  const key = headers.get('x-api-key')!.trim();
  if (!isWellFormedApiKey(key)) throw unauthorized('The API key is malformed');
  const hash = hashSecret(key);
  const caller = await cachedCredential(`key:${hash}`, async () => {
    const { sql } = database();
    const [row] = await sql.query<CredentialRow>(
      `SELECT c.id, c.wallet, c.agent_pubkey, c.scopes, c.max_spend_per_day, a.id AS agent_id, a.max_spend_per_day AS agent_max_spend
       FROM api_keys c ${AGENT_FOR_CREDENTIAL}
       WHERE c.key_hash = $1 AND c.revoked_at IS NULL`,
      [hash],
    );
    if (!row) return null;
    // last_used_at is informative: written at most once a minute, off the request's path.
    void sql
      .query(
        `UPDATE api_keys SET last_used_at = now()
         WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
        [row.id],
      )
      .catch(() => {});
    return { caller: toCaller('api_key', row), expiresAt: Number.POSITIVE_INFINITY };
  });
  if (!caller) throw unauthorized('The API key is invalid or revoked');
  return caller;
}

/**
 * Signature headers name a wallet and carry a signed message. Whether that message authorizes
 * this operation depends on the parsed request, so the claim is confirmed later, by
 * confirmSignatureClaim(), against the exact text the endpoint declares.
 */
export interface SignatureClaim {
  via: 'signature';
  wallet: Address;
  message: string;
  signature: string;
}

function signatureClaim(headers: RequestHeaders): SignatureClaim {
  const address = headers.get('x-agent-address')?.trim();
  const message = headers.get('x-agent-message');
  const signature = headers.get('x-message-signature')?.trim();
  if (!address || !message || !signature) {
    throw unauthorized('Signature authentication needs X-Agent-Address, X-Agent-Message and X-Message-Signature');
  }
  if (!isAddress(address, { strict: false })) throw unauthorized('X-Agent-Address is not an EVM address');
  return { via: 'signature', wallet: getAddress(address), message, signature };
}

/**
 * A signed body read as a claim: its `message` and `signature`, and the wallet in the field the
 * endpoint names (or the one wallet that may sign, when the endpoint looked it up); null when any of
 * the three is missing.
 */
export function signedBodyClaim(body: unknown, signer: string | { wallet: Address }): SignatureClaim | null {
  const fields = (body ?? {}) as Record<string, unknown>;
  const address = typeof signer === 'string' ? fields[signer] : signer.wallet;
  const { message, signature } = fields;
  if (typeof address !== 'string' || typeof message !== 'string' || typeof signature !== 'string') return null;
  if (!address || !message || !signature) return null;
  if (!isAddress(address, { strict: false })) throw unauthorized(`${String(signer)} is not an EVM address`);
  return { via: 'signature', wallet: getAddress(address.toLowerCase()), message, signature };
}

/**
 * Confirms signature headers (or a signed body) for one operation: the message must be exactly `<action> <unix
 * seconds>` (optionally with a nonce before the timestamp), fresh, signed by the wallet, and never
 * used before. The caller then holds exactly the scopes that operation needs.
 */
export async function confirmSignatureClaim(
  claim: SignatureClaim,
  action: string | readonly string[],
  scopes: readonly string[],
): Promise<Caller> {
  await verifySignedMessage({ wallet: claim.wallet, message: claim.message, signature: claim.signature, action });
  return signerCaller(claim.wallet, scopes);
}

/**
 * The caller a verified signed message proves (signature headers or a signed body): the wallet,
 * acting for its oldest agent, holding exactly the scopes of the one operation it signed.
 */
export async function signerCaller(wallet: Address, scopes: readonly string[]): Promise<Caller> {
  const [agent] = await database().sql.query<{ id: string; max_spend_per_day: string | bigint | null }>(
    'SELECT id, max_spend_per_day FROM agents WHERE owner_wallet = $1 ORDER BY created_at ASC, id ASC LIMIT 1',
    [wallet],
  );
  return {
    via: 'signature',
    wallet,
    agentId: agent?.id ?? null,
    agentPubkey: null,
    scopes: [...scopes],
    credentialId: null,
    maxSpendPerDay: stricter(agent?.max_spend_per_day),
  };
}

/**
 * A bearer token sent as the `token` query parameter (EventSource cannot set headers): 401 unless it
 * is a live token. A token is visible ASCII; anything else could not be a header value and is no token of ours.
 */
export async function callerForQueryToken(token: string): Promise<Caller> {
  const caller = /^[\x21-\x7e]+$/.test(token) ? await callerForToken(token) : null;
  if (!caller) throw unauthorized('The bearer token is invalid, expired or revoked');
  return caller;
}

/** 401 for a call that presented none of the ways its endpoint accepts. */
export function authenticationRequired(accepted: readonly AuthMode[]): ApiError {
  return unauthorized(`Authentication required: send ${accepted.map((mode) => LABEL[mode]).join(' or ')}`, { accepted });
}

const RESOLVERS: Record<HeaderMode, (headers: RequestHeaders) => Promise<Caller | SignatureClaim>> = {
  bearer: fromBearer,
  api_key: fromApiKey,
  signature: async (headers) => signatureClaim(headers),
};

/**
 * Resolves the caller from the request headers, for an endpoint's auth spec. Presented credentials are always
 * checked: a bad one is 401 even where authentication is optional. Signature headers come back as a
 * claim to confirm once the request is parsed. Null when no credential is presented and none is needed
 * yet: authentication is optional, or the endpoint also accepts one read with the input (a signed
 * body, a query token; server/http/policy.ts). An endpoint that accepts a signed body only ignores the headers.
 */
export async function authenticate(headers: RequestHeaders, spec: AuthSpec): Promise<Caller | SignatureClaim | null> {
  if (spec === 'none') return null;
  const accepted: readonly AuthMode[] = spec === 'optional' ? ORDER : spec;
  const fromHeaders = ORDER.filter((mode) => accepted.includes(mode));
  if (fromHeaders.length === 0) return null;
  const presented = presentedModes(headers);
  const usable = fromHeaders.filter((mode) => presented.includes(mode));
  if (usable.length === 0) {
    const withInput = accepted.length > fromHeaders.length;
    if (presented.length === 0 && (spec === 'optional' || withInput)) return null;
    const expected = accepted.map((mode) => LABEL[mode]).join(' or ');
    throw unauthorized(
      presented.length === 0 ? `Authentication required: send ${expected}` : `This endpoint accepts ${expected}`,
      { accepted },
    );
  }
  return RESOLVERS[usable[0]!](headers);
}
