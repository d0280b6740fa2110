import type { ZodType } from 'zod';
import { authenticationRequired, callerForQueryToken, confirmSignatureClaim, signedBodyClaim } from '../auth/authenticate';
import type { AuthMode, Caller } from '../core/caller';
import { ApiError, runAfterRollback, validationError } from '../core/errors';
import type { RateLimitResult } from '../core/rate-limit';
import type { RateLimitPolicyName } from '../core/rate-limit-policies';
import { asPublicRead } from '../core/db/read-scope';
import { currentRuntime } from '../core/runtime';
import { rateLimitSubject } from './client-ip';
import { SerializedJson } from './common-headers';
import { Reply, type AnyEndpoint, type RateLimitRule, type RequestInput } from './endpoint';
import { claimIdempotencyKey, requestHash, settleIdempotencyKey } from './idempotency';
import { DEFAULT_BODY_LIMIT } from './read-body';
import { responseCache, type CachedAnswer } from './response-cache';
import { assertSafeInput } from './safe-input';

// The policy an endpoint declares (endpoint.ts), independent of the door a call comes through: the
// REST wrapper (mount.ts), the UI's procedures (trpc/procedure-from.ts) and the MCP tools
// (mcp/tool-from.ts) all run a call through runDeclared(), so the scopes, input checks, body limit,
// idempotency and rate limits of one operation are the same whichever door it is called through, and
// each call (also each call inside a tRPC or JSON-RPC batch) is checked and counted once.
//
// Credentials in the headers are resolved by the door (REST: auth/authenticate.ts; the UI: the
// session; MCP: its bearer token). The two that ride in the input are resolved here, for every door:
// a bearer token in the `token` query parameter ('query_token'), and a signed body ('signed_body':
// the wallet named by the endpoint's `signer` field signed the body's `message`, which must be
// exactly `<signedAction> <unix seconds>`, fresh, and used once; the handler gets that wallet as its
// caller). A signed body is checked after the rate limits and the endpoint's `beforeSignature` refusals.

/** The raw (unparsed) parts of a call, as a door received them. */
export interface RawInput {
  params?: unknown;
  query?: unknown;
  body?: unknown;
  /** The declared request headers (REST only), keyed as the endpoint's headers schema writes them. */
  headers?: unknown;
}

const accepts = (def: AnyEndpoint, mode: AuthMode): boolean => Array.isArray(def.auth) && def.auth.includes(mode);

/**
 * An operation authorized by its signed body alone: no other credential (and no web session) stands
 * in for the signature, which the body carries whichever door the call came through.
 */
export const signedBodyOnly = (def: AnyEndpoint): boolean =>
  Array.isArray(def.auth) && def.auth.length > 0 && def.auth.every((mode) => mode === 'signed_body');

/**
 * How the door authenticated the caller: a credential kind the endpoint must accept (REST, MCP), or
 * the web session (the wallet itself signed in with SIWE; accepted wherever a credential is required).
 */
export type CallerSource = AuthMode | 'session';

export interface DeclaredCall {
  caller: Caller | null;
  source?: CallerSource;
  raw: RawInput;
  ip: string;
  /** The HTTP request (for a call inside a tRPC or JSON-RPC batch: the batch's); read only when needed. */
  request: Request;
  /** Its headers, when the door has them without the Request (the node door); else request.headers. */
  headers?: Pick<Headers, 'get' | 'has'>;
  requestId: string;
  /** Told the tightest limit counted as soon as the limits pass, before the handler runs (REST sets the RateLimit headers). */
  onRateLimit?: (result: RateLimitResult) => void;
  /** An Idempotency-Key the caller sent (REST only), and the path it is kept for. */
  idempotency?: { key: string; path: string; rawBody: unknown } | null;
}

export interface DeclaredResult {
  /** The handler's answer (a Response for event streams and protocol answers), or a replayed one. */
  answer: Reply | Response;
  replayed: boolean;
  /** The answer's body already serialized (a response-cache answer): the door writes it as it is. */
  json?: string;
}

export function parseInput<S extends ZodType>(
  schema: S | undefined,
  value: unknown,
  where: 'body' | 'query' | 'params' | 'headers',
) {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, where);
  return result.data;
}

/** Every entry is required (403 naming the first one missing); a list entry is met by any one of its scopes. */
export function requireScopes(caller: Caller, scopes: AnyEndpoint['scopes']): void {
  for (const entry of scopes ?? []) {
    const anyOf: readonly string[] = typeof entry === 'string' ? [entry] : entry;
    if (!anyOf.some((scope) => caller.scopes.includes(scope))) {
      const named = anyOf.join(' or ');
      throw new ApiError('missing_scope', `Missing scope ${named}`, { required_scope: anyOf[0], accepted_scopes: anyOf });
    }
  }
}

/** The scopes an endpoint asks for, flattened (what a signed message for it grants). */
export const scopeList = (def: AnyEndpoint): string[] =>
  (def.scopes ?? []).flatMap((entry) => (typeof entry === 'string' ? [entry] : [...entry]));

/** 401 when the endpoint needs a credential the caller did not present (or one of a kind it does not accept), then its scopes. */
export function authorize(def: AnyEndpoint, caller: Caller | null, source: CallerSource | undefined): void {
  if (def.auth === 'none') return;
  if (!caller) {
    // A signed body or a query token is confirmed with the input (runDeclared).
    if (def.auth === 'optional' || accepts(def, 'signed_body') || accepts(def, 'query_token')) return;
    throw new ApiError('unauthorized', 'Authentication required');
  }
  if (Array.isArray(def.auth) && source !== 'session' && !def.auth.includes(source ?? caller.via)) {
    throw new ApiError('unauthorized', `This operation accepts ${def.auth.join(' or ')} credentials only`);
  }
  requireScopes(caller, def.scopes);
}

/** Refuses NUL characters, lone surrogates and deep nesting, then parses params and query with the declared schemas. */
export function parseParamsAndQuery(def: AnyEndpoint, raw: RawInput) {
  const rawParams = raw.params ?? {};
  if (def.params) assertSafeInput(rawParams, 'params');
  const params = parseInput(def.params, rawParams, 'params');
  const rawQuery = def.query ? (raw.query ?? {}) : {};
  if (def.query) assertSafeInput(rawQuery, 'query');
  const query = parseInput(def.query, rawQuery, 'query');
  return { params, query };
}

/** The same checks for the body (an absent body parses as {}). */
export function parseBody(def: AnyEndpoint, rawBody: unknown) {
  if (rawBody !== undefined && def.body) assertSafeInput(rawBody, 'body');
  return parseInput(def.body, rawBody ?? {}, 'body');
}

/** The declared headers (absent ones are undefined). */
export function parseHeaders(def: AnyEndpoint, rawHeaders: unknown) {
  return parseInput(def.headers, rawHeaders ?? {}, 'headers');
}

export function parseDeclaredInput(def: AnyEndpoint, raw: RawInput) {
  return { ...parseParamsAndQuery(def, raw), body: parseBody(def, raw.body), headers: parseHeaders(def, raw.headers) };
}

/** The declared body limit for a body a door received already parsed (the REST door counts bytes as it reads). */
export function assertBodyLimit(def: AnyEndpoint, body: unknown): void {
  if (body === undefined) return;
  const limit = def.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const size = Buffer.byteLength(JSON.stringify(body) ?? '', 'utf8');
  if (size > limit) throw new ApiError('payload_too_large', `Request body is larger than ${limit} bytes`, { limit_bytes: limit });
}

/**
 * What the handler (and a declared rate-limit rule) receives: the parsed input, the caller, and the
 * request, which is read from the call only when asked for (the node door builds the web Request on
 * first use). `request` is a getter: read it, do not spread the input. (A class rather than an object
 * literal with a getter: that literal costs an allocation and a slow object per request.)
 */
class DeclaredInput implements RequestInput<unknown, unknown, unknown> {
  params: RequestInput<unknown, unknown, unknown>['params'];
  query: RequestInput<unknown, unknown, unknown>['query'];
  body: RequestInput<unknown, unknown, unknown>['body'];
  ip: string;
  headers: unknown;
  caller: Caller | null;
  requestId: string;
  readonly #call: DeclaredCall;

  constructor(input: RequestInput<unknown, unknown, unknown>, headers: unknown, caller: Caller | null, call: DeclaredCall) {
    this.params = input.params;
    this.query = input.query;
    this.body = input.body;
    this.ip = input.ip;
    this.headers = headers;
    this.caller = caller;
    this.requestId = call.requestId;
    this.#call = call;
  }

  get request(): Request {
    return this.#call.request;
  }

  header(name: string): string | null {
    return (this.#call.headers ?? this.#call.request.headers).get(name);
  }
}

/** An endpoint without rate limits counts nothing. */
const NO_LIMITS: { hits: Hit[]; tightest: RateLimitResult | null } = Object.freeze({ hits: [], tightest: null });

const firstStatus = (def: AnyEndpoint): number => (typeof def.status === 'number' ? def.status : def.status[0]!);
const declaresStatus = (def: AnyEndpoint, status: number): boolean =>
  typeof def.status === 'number' ? def.status === status : def.status.includes(status);

interface Hit {
  policy: RateLimitPolicyName;
  subject: string;
  member: string | undefined;
  refundOnError: boolean;
}

/** Counts the call against every declared limit; 429 (and every hit taken back) past one. */
async function applyRateLimits(
  def: AnyEndpoint,
  input: RequestInput<unknown, unknown, unknown> & { caller: Caller | null; request: Request },
): Promise<{ hits: Hit[]; tightest: RateLimitResult | null }> {
  if (!def.rateLimit) return { hits: [], tightest: null };
  const { limiter } = currentRuntime();
  const rules: RateLimitRule[] = typeof def.rateLimit === 'string' ? [{ policy: def.rateLimit }] : def.rateLimit;
  const hits: Hit[] = [];
  let tightest: RateLimitResult | null = null;
  try {
    for (const rule of rules) {
      if (rule.when && !(await rule.when(input))) continue;
      const policy = limiter.policy(rule.policy);
      const subject = rule.key
        ? `k:${await rule.key(input)}`
        : rateLimitSubject(policy.key, input.caller?.wallet ?? null, input.ip);
      const member = rule.member?.(input);
      let result: RateLimitResult;
      try {
        result = await limiter.enforce(rule.policy, subject, member);
      } catch (error) {
        if (rule.exceeded && error instanceof ApiError && error.code === 'rate_limited') throw await rule.exceeded(input, error);
        throw error;
      }
      hits.push({ policy: rule.policy, subject, member, refundOnError: !member && (rule.refundOnError ?? false) });
      if (!tightest || result.remaining < tightest.remaining) tightest = result;
    }
  } catch (error) {
    await Promise.all(hits.map((hit) => limiter.refund(hit.policy, hit.subject, hit.member)));
    throw error;
  }
  return { hits, tightest };
}

/**
 * A read whose handler may be answered by the read replica (DATABASE_REPLICA_URL; the rule is in
 * docs/spec-decisions.md): a GET that is not an event stream, from a caller presenting no credential
 * (no Authorization, API key, signature headers or session cookie). Any caller who can have written
 * reads the primary, so nobody misses their own write; the rate limits and idempotency around the
 * handler always use the primary.
 */
export function isPublicRead(def: AnyEndpoint, caller: Caller | null, call: DeclaredCall): boolean {
  return currentRuntime().database.publicRead !== undefined && isAnonymousRead(def, caller, call);
}

/** A GET (not an event stream) from a caller presenting no credential: who may read the replica or the response cache. */
function isAnonymousRead(def: AnyEndpoint, caller: Caller | null, call: DeclaredCall): boolean {
  if (def.method !== 'get' || caller !== null || 'kind' in def.response) return false;
  const headers = call.headers ?? call.request.headers;
  if (headers.has('authorization') || headers.has('x-api-key') || headers.has('x-agent-address')) return false;
  return !/session-token/.test(headers.get('cookie') ?? '');
}

/**
 * The handler's answer through the response cache (response-cache.ts): a declared cache, an
 * anonymous caller. A miss runs the handler on the primary (a replica's answer could be older than a
 * change notice already heard) and keeps a plain 200 serialized.
 */
async function cachedAnswer(
  def: AnyEndpoint,
  parsed: { params: unknown; query: unknown },
  run: () => Promise<unknown>,
): Promise<{ cached: CachedAnswer | null | undefined; ran: boolean; result?: unknown }> {
  let result: unknown;
  let ran = false;
  const key = `${def.method} ${def.path} ${JSON.stringify([parsed.params ?? null, parsed.query ?? null])}`;
  const cached = await responseCache().get(key, def.cache!, async () => {
    ran = true;
    result = await run();
    if (result instanceof Response) return null;
    if (result instanceof SerializedJson)
      return firstStatus(def) === 200 ? { status: 200, json: result.text, headers: {} } : null;
    const answer = result instanceof Reply ? result : new Reply(firstStatus(def), result);
    if (answer.status !== 200) return null;
    return { status: 200, json: JSON.stringify(answer.body), headers: answer.headers };
  });
  return { cached, ran, result };
}

/**
 * Runs one call of a declared endpoint after the door has authenticated it: scopes, input checks,
 * idempotency, rate limits, then the handler (the hits declared refundOnError are given back when it
 * fails). Signature headers are confirmed by the REST door before (they sign the exact request).
 */
export async function runDeclared(
  def: AnyEndpoint,
  call: DeclaredCall,
  parsed: ReturnType<typeof parseDeclaredInput> = parseDeclaredInput(def, call.raw),
): Promise<DeclaredResult> {
  const headers = parsed.headers;
  const input = { params: parsed.params, query: parsed.query, body: parsed.body, ip: call.ip };
  let caller = signedBodyOnly(def) ? null : call.caller;
  if (!caller && accepts(def, 'query_token')) {
    const token = (input.query as { token?: unknown } | undefined)?.token;
    if (typeof token === 'string') {
      caller = await callerForQueryToken(token);
      requireScopes(caller, def.scopes);
    }
  }
  if (!caller && Array.isArray(def.auth) && !accepts(def, 'signed_body')) throw authenticationRequired(def.auth);
  const idempotency = def.idempotent && caller ? (call.idempotency ?? null) : null;
  if (idempotency && caller) {
    const claim = await claimIdempotencyKey(
      caller.wallet,
      idempotency.key,
      requestHash(def.method, idempotency.path, idempotency.rawBody),
    );
    if (claim.kind === 'replay') return { answer: new Reply(claim.status, claim.body), replayed: true };
  }
  let hits: Hit[] = [];
  try {
    const limits = def.rateLimit ? await applyRateLimits(def, new DeclaredInput(input, headers, caller, call)) : NO_LIMITS;
    hits = limits.hits;
    if (limits.tightest) call.onRateLimit?.(limits.tightest);
    // After the limits: a bad signature spends the budget (they count per IP until the signer is proven).
    if (!caller && accepts(def, 'signed_body')) {
      const claim = signedBodyClaim(
        input.body,
        typeof def.signer === 'function' ? { wallet: await def.signer(input) } : def.signer!,
      );
      if (!claim) throw authenticationRequired(def.auth as readonly AuthMode[]);
      const signing = { ...input, wallet: claim.wallet };
      // The refusals that must cost no signature (and answer a replay of a refused request) come first.
      await def.beforeSignature?.(signing);
      caller = await confirmSignatureClaim(claim, await def.signedAction!(signing), scopeList(def));
    }
    const handlerInput = new DeclaredInput(input, headers, caller, call);
    // The handler is called inline, not through a `const run = () => ...`: server.ts runs under tsx, which
    // names every such closure with an Object.defineProperty as it is created (measured: 0.4 µs a request).
    let result: unknown;
    if (def.cache && isAnonymousRead(def, caller, call)) {
      const shared = await cachedAnswer(def, input, () => def.handler(handlerInput));
      // A kept answer is written as it was serialized for the cache (this call's own computation too: not
      // serialized twice); an answer not kept is this call's own result, or a computation of its own.
      if (shared.cached)
        return {
          answer: new Reply(shared.cached.status, undefined, shared.cached.headers),
          replayed: false,
          json: shared.cached.json,
        };
      result = shared.ran ? shared.result : await def.handler(handlerInput);
    } else if (isPublicRead(def, caller, call)) {
      result = await asPublicRead(() => def.handler(handlerInput));
    } else {
      result = await def.handler(handlerInput);
    }
    if (result instanceof Response) return { answer: result, replayed: false };
    if (result instanceof SerializedJson) {
      const status = firstStatus(def);
      if (idempotency && caller) await settleIdempotencyKey(caller.wallet, idempotency.key, status, JSON.parse(result.text));
      return { answer: new Reply(status, undefined), replayed: false, json: result.text };
    }
    const answer = result instanceof Reply ? result : new Reply(firstStatus(def), result);
    if (!declaresStatus(def, answer.status)) {
      throw new Error(`${def.method.toUpperCase()} ${def.path} answered ${answer.status}, which it does not declare`);
    }
    if (idempotency && caller) await settleIdempotencyKey(caller.wallet, idempotency.key, answer.status, answer.body);
    return { answer, replayed: false };
  } catch (error) {
    // What a refusal leaves behind once its transaction rolled back (a pending spend approval).
    await runAfterRollback(error);
    const { limiter } = currentRuntime();
    await Promise.all(hits.filter((hit) => hit.refundOnError).map((hit) => limiter.refund(hit.policy, hit.subject)));
    if (idempotency && caller) {
      const failure = error instanceof ApiError ? error : null;
      await settleIdempotencyKey(caller.wallet, idempotency.key, failure?.status ?? 500, failure?.toBody() ?? null);
    }
    throw error;
  }
}

/**
 * One call through a door other than REST (a UI procedure, an MCP tool): the caller the door
 * authenticated, the raw input; the body limit, authorization, input checks and the rest of the
 * declared policy. Returns the success body.
 */
export async function callDeclared(def: AnyEndpoint, call: DeclaredCall): Promise<unknown> {
  authorize(def, call.caller, call.source);
  assertBodyLimit(def, call.raw.body);
  const { answer, json } = await runDeclared(def, call);
  if (answer instanceof Response)
    throw new Error(`${def.method.toUpperCase()} ${def.path} streams; it has no procedure or tool twin`);
  return json !== undefined ? JSON.parse(json) : answer.body;
}
