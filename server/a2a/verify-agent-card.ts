import canonicalize from 'canonicalize';
import { base64url, createLocalJWKSet, flattenedVerify, type JSONWebKeySet } from 'jose';
import { isAddress, type Address } from 'viem';
import { chain } from '../chain/client';
import { database } from '../core/db';
import { ApiError } from '../core/errors';
import { currentRuntime } from '../core/runtime';
import { routerJwks } from '../invoke/router-keys';
import { checkOutboundUrl, type UrlPolicy } from '../net/check-url';
import { OutboundError, outboundRequest } from '../net/outbound';
import { agentCard, agentCardUrl, ERC8004_CARD_EXTENSION, platformCard, wellKnownCardUrl } from './agent-card';

// POST /api/v1/verify/agent-card (docs/a2a.md): is this A2A AgentCard what it claims? Three checks,
// each answered with a reason when it fails (never a 5xx for what a card or a remote host does):
// 1. signature: a JWS in `signatures` verifies (jose) over the RFC 8785 canonical card without
//    `signatures` with a key from its `jku` JWKS (https, or this instance's own origin);
// 2. domain: the origin of the card's preferred interface serves the same card, at its well-known
//    URL or at the URL the card was fetched from;
// 3. erc8004: every ERC-8004 registration the card names has a tokenURI (agentURI) pointing back.
// Every remote fetch goes through the SSRF-guarded outbound client. This instance's own origin is
// answered from its own records, without a network round trip.

/** The extension through which a card names its ERC-8004 registrations (params.registrations). */
export const ERC8004_EXTENSION = ERC8004_CARD_EXTENSION;

const FETCH_TIMEOUT_MS = 5_000;
const MAX_CARD_BYTES = 256 * 1024;
const MAX_JWKS_BYTES = 64 * 1024;
const MAX_SIGNATURES = 5;
const MAX_REGISTRATIONS = 5;
const ALGORITHMS = ['EdDSA', 'Ed25519', 'ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];

const IDENTITY_REGISTRY_ABI = [
  {
    type: 'function',
    name: 'tokenURI',
    stateMutability: 'view',
    inputs: [{ name: 'tokenId', type: 'uint256' }],
    outputs: [{ name: '', type: 'string' }],
  },
] as const;

type Json = Record<string, unknown>;

interface Check {
  ok: boolean;
  detail: string;
}

interface RegistrationCheck {
  agent_registry: string;
  agent_id: string;
  ok: boolean;
  token_uri: string | null;
  detail: string;
}

export interface VerifyAgentCardResult {
  valid: boolean;
  reasons: string[];
  checked: {
    card_url: string | null;
    shape: Check;
    signature: Check & { kid: string | null; jku: string | null; alg: string | null };
    domain: Check & { origin: string | null; served_at: string | null };
    erc8004: Check & { registrations: RegistrationCheck[] };
  };
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString);

function urlPolicy(): UrlPolicy {
  const { config } = currentRuntime();
  return {
    allowHttp: config.SERVICE_NETWORK === 'testnet' || config.ALLOW_PRIVATE_URLS,
    allowPrivate: config.ALLOW_PRIVATE_URLS,
  };
}

/**
 * The origins that are this instance: PUBLIC_BASE_URL's, and the one the caller reached it at (a
 * document "fetched" from either is read from this instance's own records, never over the network,
 * so a forged Host header gains nothing: the records are the same).
 */
export function ownOrigins(requestUrl?: string): Set<string> {
  const origins = new Set([new URL(currentRuntime().config.PUBLIC_BASE_URL).origin]);
  if (requestUrl) {
    try {
      origins.add(new URL(requestUrl).origin);
    } catch {
      // not a URL: only PUBLIC_BASE_URL
    }
  }
  return origins;
}

function canonical(card: Json): string {
  const unsigned = { ...card };
  delete unsigned.signatures;
  return canonicalize(unsigned) ?? '';
}

class FetchFailed extends Error {}

/** A JSON document from a URL: this instance's own records for its own origin, else the guarded client. */
async function fetchJson(rawUrl: string, maxBytes: number, own: Set<string>): Promise<unknown> {
  const url = new URL(rawUrl);
  if (own.has(url.origin)) return ownDocument(url);
  checkUrlOrFail(rawUrl);
  let response;
  try {
    response = await outboundRequest(url.toString(), {
      method: 'GET',
      headers: { accept: 'application/json' },
      timeoutMs: FETCH_TIMEOUT_MS,
      maxResponseBytes: maxBytes,
      allowPrivate: urlPolicy().allowPrivate,
    });
  } catch (error) {
    const kind = error instanceof OutboundError ? error.kind : 'network';
    throw new FetchFailed(
      kind === 'blocked_address' ? 'refused: it resolves to a private or blocked address' : `not fetched (${kind})`,
    );
  }
  if (response.status !== 200) throw new FetchFailed(`answered HTTP ${response.status}`);
  try {
    return JSON.parse(response.body.toString('utf8'));
  } catch {
    throw new FetchFailed('did not answer JSON');
  }
}

function checkUrlOrFail(rawUrl: string): void {
  try {
    checkOutboundUrl(rawUrl, urlPolicy(), 'url');
  } catch (error) {
    throw new FetchFailed(error instanceof ApiError ? `refused: ${error.message.replace(/^url /, '')}` : 'refused');
  }
}

const OWN_AGENT_CARD = /^\/api\/v1\/agents\/([^/]{1,64})\/agent-card\.json$/;

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** What this instance serves at one of its own URLs (only the documents a card check reads). */
async function ownDocument(url: URL): Promise<unknown> {
  const path = url.pathname;
  if (path === '/.well-known/agent-card.json') return platformCard();
  if (path === '/api/v1/router/jwks') return routerJwks(database().sql);
  const match = OWN_AGENT_CARD.exec(path);
  if (match) {
    try {
      return await agentCard(decodeSegment(match[1]!));
    } catch (error) {
      if (error instanceof ApiError && error.code === 'not_found') throw new FetchFailed('answered HTTP 404');
      throw error;
    }
  }
  throw new FetchFailed('answered HTTP 404');
}

// Specification 8.4.1: fields that hold their default value (and are neither REQUIRED nor `optional`)
// are left out before canonicalization. A card that kept some is verified once more without them.
function withoutDefaults(card: Json): Json {
  const empty = (value: unknown) =>
    value === undefined ||
    value === '' ||
    (Array.isArray(value) && value.length === 0) ||
    (isObject(value) && Object.keys(value).length === 0);
  const drop = (object: unknown, keys: string[], also: (key: string, value: unknown) => boolean = () => false) => {
    if (!isObject(object)) return object;
    const copy: Json = {};
    for (const [key, value] of Object.entries(object))
      if (!(keys.includes(key) && (empty(value) || also(key, value)))) copy[key] = value;
    return copy;
  };
  const out = drop(card, ['provider', 'securitySchemes', 'securityRequirements']) as Json;
  if (Array.isArray(out.supportedInterfaces)) out.supportedInterfaces = out.supportedInterfaces.map((i) => drop(i, ['tenant']));
  if (isObject(out.capabilities)) {
    const capabilities = drop(out.capabilities, ['extensions']) as Json;
    if (Array.isArray(capabilities.extensions)) {
      capabilities.extensions = capabilities.extensions.map((e) =>
        drop(e, ['uri', 'description', 'required', 'params'], (key, value) => key === 'required' && value === false),
      );
    }
    out.capabilities = capabilities;
  }
  if (Array.isArray(out.skills)) {
    out.skills = out.skills.map((s) => drop(s, ['examples', 'inputModes', 'outputModes', 'securityRequirements']));
  }
  return out;
}

function checkShape(card: Json): Check {
  const problems: string[] = [];
  for (const field of ['name', 'description', 'version']) if (!isString(card[field])) problems.push(`${field} must be a string`);
  const interfaces = card.supportedInterfaces;
  if (!Array.isArray(interfaces) || interfaces.length === 0) problems.push('supportedInterfaces must be a non-empty array');
  else if (!interfaces.every((i) => isObject(i) && isString(i.url) && isString(i.protocolBinding) && isString(i.protocolVersion)))
    problems.push('every supportedInterfaces entry needs url, protocolBinding and protocolVersion');
  if (!isObject(card.capabilities)) problems.push('capabilities must be an object');
  for (const field of ['defaultInputModes', 'defaultOutputModes'])
    if (!isStringArray(card[field])) problems.push(`${field} must be an array of strings`);
  if (!Array.isArray(card.skills)) problems.push('skills must be an array');
  else if (
    !card.skills.every(
      (s) => isObject(s) && isString(s.id) && isString(s.name) && isString(s.description) && isStringArray(s.tags),
    )
  )
    problems.push('every skill needs id, name, description and tags');
  if (
    card.provider !== undefined &&
    !(isObject(card.provider) && isString(card.provider.organization) && isString(card.provider.url))
  )
    problems.push('provider needs organization and url');
  return problems.length
    ? { ok: false, detail: problems.join('; ') }
    : { ok: true, detail: 'the card has every field A2A v1.0 requires' };
}

function decodeHeader(encoded: unknown): Json | null {
  if (!isString(encoded)) return null;
  try {
    const header = JSON.parse(new TextDecoder().decode(base64url.decode(encoded))) as unknown;
    return isObject(header) ? header : null;
  } catch {
    return null;
  }
}

async function checkSignature(card: Json, own: Set<string>): Promise<VerifyAgentCardResult['checked']['signature']> {
  const result = { ok: false, detail: '', kid: null as string | null, jku: null as string | null, alg: null as string | null };
  const signatures = card.signatures;
  if (!Array.isArray(signatures) || signatures.length === 0) return { ...result, detail: 'the card carries no signatures' };
  const payloads = [canonical(card), canonical(withoutDefaults(card))].filter((p, i, all) => all.indexOf(p) === i);
  const failures: string[] = [];
  for (const [index, signature] of signatures.slice(0, MAX_SIGNATURES).entries()) {
    const header = isObject(signature) ? decodeHeader(signature.protected) : null;
    if (!isObject(signature) || !header || !isString(signature.signature)) {
      failures.push(`signature ${index}: not a JWS (protected, signature)`);
      continue;
    }
    const kid = isString(header.kid) ? header.kid : null;
    const jku = isString(header.jku) ? header.jku : null;
    const alg = isString(header.alg) ? header.alg : null;
    Object.assign(result, { kid, jku, alg });
    if (!alg || !ALGORITHMS.includes(alg)) {
      failures.push(`signature ${index}: alg ${alg ?? '(none)'} is not accepted`);
      continue;
    }
    if (!kid) {
      failures.push(`signature ${index}: the protected header has no kid`);
      continue;
    }
    if (!jku) {
      failures.push(`signature ${index}: the protected header has no jku (no key to check it with)`);
      continue;
    }
    let jwks: unknown;
    try {
      const jkuUrl = new URL(jku);
      if (jkuUrl.protocol !== 'https:' && !own.has(jkuUrl.origin) && !(jkuUrl.protocol === 'http:' && urlPolicy().allowHttp)) {
        throw new FetchFailed('refused: jku must be an https URL or this instance’s own origin');
      }
      jwks = await fetchJson(jku, MAX_JWKS_BYTES, own);
    } catch (error) {
      failures.push(`signature ${index}: jku ${error instanceof FetchFailed ? error.message : 'is not a URL'}`);
      continue;
    }
    if (!isObject(jwks) || !Array.isArray(jwks.keys)) {
      failures.push(`signature ${index}: jku did not answer a JWKS`);
      continue;
    }
    let keys;
    try {
      keys = createLocalJWKSet(jwks as unknown as JSONWebKeySet);
    } catch {
      failures.push(`signature ${index}: jku did not answer a usable JWKS`);
      continue;
    }
    let verified = false;
    let lastError = '';
    for (const payload of payloads) {
      try {
        await flattenedVerify(
          {
            protected: signature.protected as string,
            signature: signature.signature,
            payload: base64url.encode(payload),
            ...(isObject(signature.header) ? { header: signature.header } : {}),
          },
          keys,
          { algorithms: ALGORITHMS },
        );
        verified = true;
        break;
      } catch (error) {
        lastError =
          (error as { code?: string }).code === 'ERR_JWKS_NO_MATCHING_KEY'
            ? `no key ${kid} in the JWKS`
            : 'the signature does not match the card';
      }
    }
    if (verified) return { ok: true, detail: `signature ${index} verifies with key ${kid} from ${jku}`, kid, jku, alg };
    failures.push(`signature ${index}: ${lastError}`);
  }
  return { ...result, detail: failures.join('; ') };
}

/** The origin a card's preferred interface lives at (gRPC addresses are host:port). */
function cardOrigin(card: Json): string | null {
  const first = Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces[0] : null;
  if (!isObject(first) || !isString(first.url)) return null;
  for (const candidate of [first.url, `https://${first.url}`]) {
    try {
      const url = new URL(candidate);
      if (url.protocol === 'https:' || url.protocol === 'http:') return url.origin;
    } catch {
      // next candidate
    }
  }
  return null;
}

async function checkDomain(
  card: Json,
  cardUrl: string | null,
  own: Set<string>,
): Promise<VerifyAgentCardResult['checked']['domain']> {
  const origin = cardOrigin(card);
  if (!origin)
    return { ok: false, detail: 'the card’s preferred interface has no URL with a host', origin: null, served_at: null };
  const candidates = [wellKnownCardUrl(origin)];
  if (cardUrl && new URL(cardUrl).origin === origin && !candidates.includes(cardUrl)) candidates.push(cardUrl);
  if (own.has(origin)) {
    // One of this instance's agents: its card lives beside its invoke route.
    const first = (card.supportedInterfaces as Json[])[0]!.url as string;
    const match = /^\/api\/v1\/agents\/([^/]+)\/invoke$/.exec(new URL(first).pathname);
    if (match) candidates.push(agentCardUrl(origin, match[1]!));
  }
  const expected = canonical(card);
  const seen: string[] = [];
  for (const candidate of candidates) {
    try {
      const served = await fetchJson(candidate, MAX_CARD_BYTES, own);
      if (isObject(served) && canonical(served) === expected) {
        return { ok: true, detail: `${candidate} serves this card`, origin, served_at: candidate };
      }
      seen.push(`${candidate} serves a different card`);
    } catch (error) {
      if (!(error instanceof FetchFailed)) throw error;
      seen.push(`${candidate} ${error.message}`);
    }
  }
  return { ok: false, detail: seen.join('; '), origin, served_at: null };
}

interface NamedRegistration {
  agentRegistry: string;
  agentId: string;
}

/** ERC-8004 registrations a card names: the ERC-8004 extension's params, or a top-level `registrations`. */
function namedRegistrations(card: Json): NamedRegistration[] {
  const lists: unknown[] = [];
  if (Array.isArray(card.registrations)) lists.push(...card.registrations);
  const extensions = isObject(card.capabilities) ? card.capabilities.extensions : null;
  if (Array.isArray(extensions)) {
    for (const extension of extensions) {
      if (isObject(extension) && extension.uri === ERC8004_EXTENSION && isObject(extension.params)) {
        const registrations = extension.params.registrations;
        if (Array.isArray(registrations)) lists.push(...registrations);
      }
    }
  }
  const out: NamedRegistration[] = [];
  for (const entry of lists) {
    if (!isObject(entry)) continue;
    const agentId = typeof entry.agentId === 'number' || isString(entry.agentId) ? String(entry.agentId) : '';
    const agentRegistry = isString(entry.agentRegistry) ? entry.agentRegistry : '';
    if (!out.some((r) => r.agentId === agentId && r.agentRegistry === agentRegistry)) out.push({ agentId, agentRegistry });
  }
  return out;
}

/** Decodes a data: URI or fetches a registration file (SSRF-guarded). */
async function readRegistrationFile(tokenUri: string, own: Set<string>): Promise<unknown> {
  const data = /^data:application\/json(?:;charset=[^;,]+)?(;base64)?,(.*)$/s.exec(tokenUri);
  if (data) {
    const text = data[1] ? Buffer.from(data[2]!, 'base64').toString('utf8') : decodeURIComponent(data[2]!);
    return JSON.parse(text) as unknown;
  }
  if (tokenUri.startsWith('ipfs://')) throw new FetchFailed('is an ipfs:// URI (not fetched by this instance)');
  return fetchJson(tokenUri, MAX_CARD_BYTES, own);
}

async function checkRegistration(
  registration: NamedRegistration,
  cardLocations: string[],
  ownAgentId: string | null,
  own: Set<string>,
): Promise<RegistrationCheck> {
  const base: RegistrationCheck = {
    agent_registry: registration.agentRegistry,
    agent_id: registration.agentId,
    ok: false,
    token_uri: null,
    detail: '',
  };
  const caip = /^eip155:(\d{1,12}):(0x[0-9a-fA-F]{40})$/.exec(registration.agentRegistry);
  if (!caip || !isAddress(caip[2]!, { strict: false }))
    return { ...base, detail: 'agentRegistry is not eip155:<chainId>:<address>' };
  if (!/^\d{1,78}$/.test(registration.agentId)) return { ...base, detail: 'agentId is not a non-negative integer' };
  const { config } = currentRuntime();
  if (Number(caip[1]) !== config.CHAIN_ID) {
    return { ...base, detail: `the registry is on chain ${caip[1]}; this instance reads chain ${config.CHAIN_ID}` };
  }
  const registry = caip[2]! as Address;
  let tokenUri: string;
  try {
    const { client } = await chain();
    const code = await client.getCode({ address: registry });
    if (!code || code === '0x') return { ...base, detail: `no contract at ${registry} on chain ${config.CHAIN_ID}` };
    tokenUri = await client.readContract({
      address: registry,
      abi: IDENTITY_REGISTRY_ABI,
      functionName: 'tokenURI',
      args: [BigInt(registration.agentId)],
    });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'chain_unavailable')
      return { ...base, detail: 'no chain is available to read the registry' };
    const message = (error as Error).message ?? '';
    if (/revert|execution reverted|nonexistent|ERC721/i.test(message)) {
      return { ...base, detail: `tokenURI(${registration.agentId}) reverted: no such agent in the registry` };
    }
    return { ...base, detail: 'the chain node failed while reading the registry' };
  }
  const found = { ...base, token_uri: tokenUri };
  if (cardLocations.includes(tokenUri)) return { ...found, ok: true, detail: 'the agentURI is this card' };
  const { PUBLIC_BASE_URL } = config;
  if (ownAgentId && tokenUri === `${PUBLIC_BASE_URL}/api/v1/agents/${ownAgentId}/registration.json`) {
    return {
      ...found,
      ok: true,
      detail: 'the agentURI is this agent’s registration file on this instance, which lists this card',
    };
  }
  let file: unknown;
  try {
    file = await readRegistrationFile(tokenUri, own);
  } catch (error) {
    return {
      ...found,
      detail: `the agentURI ${error instanceof FetchFailed ? error.message : 'is not a readable registration file'}`,
    };
  }
  if (!isObject(file)) return { ...found, detail: 'the agentURI is not a JSON registration file' };
  const services = [
    ...(Array.isArray(file.services) ? file.services : []),
    ...(Array.isArray(file.endpoints) ? file.endpoints : []),
  ];
  const a2a = services.filter(
    (s): s is Json => isObject(s) && isString(s.name) && s.name.toLowerCase() === 'a2a' && isString(s.endpoint),
  );
  if (!a2a.some((s) => cardLocations.includes(s.endpoint as string))) {
    return { ...found, detail: 'the registration file lists no A2A service at this card’s URL' };
  }
  const registrations = Array.isArray(file.registrations) ? file.registrations : [];
  const listed = registrations.some(
    (r) =>
      isObject(r) &&
      String(r.agentId) === registration.agentId &&
      String(r.agentRegistry).toLowerCase() === registration.agentRegistry.toLowerCase(),
  );
  if (!listed) return { ...found, detail: 'the registration file does not list this registration' };
  return { ...found, ok: true, detail: 'the registration file lists this card and this registration' };
}

export interface VerifyAgentCardInput {
  card?: Json;
  url?: string;
  /** The URL the request came in at: its origin is this instance too. */
  requestUrl?: string;
}

/** POST /api/v1/verify/agent-card. 400 only for a refused `url`; everything else is a verdict. */
export async function verifyAgentCard(input: VerifyAgentCardInput): Promise<VerifyAgentCardResult> {
  const reasons: string[] = [];
  const own = ownOrigins(input.requestUrl);
  const notChecked = 'not checked: no card';
  let card: Json | null = input.card ?? null;
  const cardUrl = input.url ?? null;
  if (cardUrl && !own.has(new URL(cardUrl).origin)) checkOutboundUrl(cardUrl, urlPolicy(), 'url');
  if (cardUrl) {
    try {
      const fetched = await fetchJson(cardUrl, MAX_CARD_BYTES, own);
      if (!isObject(fetched)) throw new FetchFailed('did not answer a JSON object');
      if (card && canonical(card) !== canonical(fetched))
        reasons.push('card_mismatch: the card sent differs from the card at url');
      card ??= fetched;
    } catch (error) {
      if (!(error instanceof FetchFailed)) throw error;
      reasons.push(`card_unreachable: ${cardUrl} ${error.message}`);
    }
  }
  if (!card) {
    return {
      valid: false,
      reasons,
      checked: {
        card_url: cardUrl,
        shape: { ok: false, detail: notChecked },
        signature: { ok: false, detail: notChecked, kid: null, jku: null, alg: null },
        domain: { ok: false, detail: notChecked, origin: null, served_at: null },
        erc8004: { ok: false, detail: notChecked, registrations: [] },
      },
    };
  }
  const shape = checkShape(card);
  if (!shape.ok) reasons.push(`invalid_shape: ${shape.detail}`);
  const [signature, domain] = await Promise.all([checkSignature(card, own), checkDomain(card, cardUrl, own)]);
  if (!signature.ok) reasons.push(`bad_signature: ${signature.detail}`);
  if (!domain.ok) reasons.push(`domain_mismatch: ${domain.detail}`);

  const named = namedRegistrations(card).slice(0, MAX_REGISTRATIONS);
  const locations = [cardUrl, domain.served_at].filter((l): l is string => Boolean(l));
  // A card this instance serves for one of its agents names the agent (by id) in its invoke route.
  let ownAgent: RegExpExecArray | null = null;
  if (domain.ok && own.has(domain.origin ?? '')) {
    try {
      const invoke = new URL(String((card.supportedInterfaces as Json[])[0]!.url));
      ownAgent = /^\/api\/v1\/agents\/([0-9a-f-]{36})\/invoke$/.exec(invoke.pathname);
    } catch {
      ownAgent = null;
    }
  }
  const ownAgentId = ownAgent ? ownAgent[1]! : null;
  const registrations = await Promise.all(named.map((r) => checkRegistration(r, locations, ownAgentId, own)));
  const erc8004 = {
    ok: registrations.every((r) => r.ok),
    detail:
      named.length === 0
        ? 'the card names no ERC-8004 registration'
        : `${registrations.filter((r) => r.ok).length} of ${named.length} registrations point back to this card`,
    registrations,
  };
  for (const r of registrations) if (!r.ok) reasons.push(`erc8004_mismatch: ${r.agent_registry} #${r.agent_id}: ${r.detail}`);
  return { valid: reasons.length === 0, reasons, checked: { card_url: cardUrl, shape, signature, domain, erc8004 } };
}
