import type { Address } from 'viem';
import type { z, ZodType } from 'zod';
import type { ApiError } from '../core/errors';
import type { AuthSpec, Caller } from '../core/caller';
import type { RateLimitPolicyName } from '../core/rate-limit-policies';
import type { Scope } from '../core/scopes';
import type { SerializedJson } from './common-headers';
import type { CachePolicy } from './response-cache';

// The one declaration every REST endpoint makes (server/api/a/, server/api/v1/): how it
// authenticates, what it needs, what it reads, how it is limited, and what it answers. The
// wrapper (mount.ts) enforces all of it; the OpenAPI document is generated from it.

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

type Out<S> = S extends ZodType ? z.output<S> : undefined;
type CallerFor<A extends AuthSpec> = A extends 'none' ? null : A extends 'optional' ? Caller | null : Caller;

/** The parsed request a handler (and a declared rate-limit key or signed action) receives. */
export interface RequestInput<P, Q, B> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  ip: string;
}

export interface HandlerInput<P, Q, B, A extends AuthSpec, H = undefined> extends RequestInput<P, Q, B> {
  /** The proven caller: from a credential in the headers or the query, or the wallet that signed the body. */
  caller: CallerFor<A>;
  /** The declared request headers, parsed (names as the schema writes them). */
  headers: Out<H>;
  /** The HTTP request the call came in (for a call inside a tRPC or JSON-RPC batch: the batch's request). */
  request: Request;
  /** A header of that request, read without building `request` where the door need not (the REST door). */
  header(name: string): string | null;
  requestId: string;
}

/**
 * A rate limit applied to an endpoint: a named policy (server/core/rate-limit-policies.ts), kept
 * per caller or IP as the policy says unless `key` names the subject (for example an agent pair).
 */
export interface RateLimitRule<P = unknown, Q = unknown, B = unknown> {
  policy: RateLimitPolicyName;
  key?: (input: RequestInput<P, Q, B> & { caller: Caller | null }) => string | Promise<string>;
  /** Count the request only when this holds (for example: only when a grant would be paid). */
  when?: (input: RequestInput<P, Q, B> & { caller: Caller | null; request?: Request }) => boolean | Promise<boolean>;
  /**
   * The answer instead of the 429 once the limit is spent (for example a 402 offering an x402
   * payment that still carries Retry-After); it receives the 429 and returns the error to throw.
   */
  exceeded?: (input: RequestInput<P, Q, B> & { caller: Caller | null; request: Request }, limited: ApiError) => Promise<ApiError>;
  /**
   * Count distinct members (for example wallets) instead of requests: a member already counted in
   * the window passes again without using the limit, however many requests it sends at once.
   */
  member?: (input: RequestInput<P, Q, B> & { caller: Caller | null }) => string;
  /** Give the hit back when the handler fails, so refused attempts do not use up the limit (not for member counts). */
  refundOnError?: boolean;
}

/** A success answer with a status (one of the declared ones) and headers. */
export class Reply<T = unknown> {
  constructor(
    readonly status: number,
    readonly body: T,
    readonly headers: Record<string, string> = {},
  ) {}
}

export function reply<T>(status: number, body: T, headers: Record<string, string> = {}): Reply<T> {
  return new Reply(status, body, headers);
}

/** Declares a text/event-stream answer; the handler then returns a Response whose body streams. */
export interface EventStreamResponse {
  kind: 'event-stream';
  description: string;
}

export interface EndpointDef<
  P = undefined,
  Q = undefined,
  B = undefined,
  A extends AuthSpec = AuthSpec,
  R = unknown,
  H = undefined,
> {
  method: HttpMethod;
  /** OpenAPI-style path, for example /api/v1/agents/{id}. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  auth: A;
  /**
   * Every entry is required (403 naming the first one missing); an entry that is a list is met by
   * any one of its scopes (for example agents.register or agents.write to create an agent).
   */
  scopes?: readonly (Scope | readonly Scope[])[];
  /**
   * Required when auth accepts 'signature' or 'signed_body': the exact text (before the timestamp)
   * that the X-Agent-Message header or the body's `message` must carry to authorize this operation and
   * nothing else; or the texts one of which it must carry (an agent written as its handle or its id).
   * Only a signed body's text may need a lookup (a promise).
   */
  signedAction?: (
    input: RequestInput<P, Q, B> & { wallet: string },
  ) => string | readonly string[] | Promise<string | readonly string[]>;
  /**
   * Required when auth accepts 'signed_body': the body field naming the wallet that signed the
   * body's `message` (the body's `signature` field carries the EIP-191 signature), or a lookup of the
   * one wallet that may sign for the object the request names (its owner; 404 for an unknown object).
   */
  signer?: string | ((input: RequestInput<P, Q, B>) => Promise<Address>);
  /**
   * With a signed body: the refusals answered before the signature is checked and its message used
   * up (unknown object 404, conflict 409, not allowed 403), so such a refusal costs the client no
   * signature. Receives the wallet the body names (not yet proven).
   */
  beforeSignature?: (input: RequestInput<P, Q, B> & { wallet: Address }) => Promise<unknown>;
  params?: P;
  query?: Q;
  body?: B;
  /** Request headers the handler reads: a z.object keyed by header name (matched in any letter case). */
  headers?: H;
  /** Largest accepted request body in bytes (413 above it). Default 64 KiB. */
  bodyLimit?: number;
  rateLimit?: RateLimitPolicyName | RateLimitRule<P, Q, B>[];
  /** Accepts an Idempotency-Key header: a repeat returns the first answer and changes nothing. */
  idempotent?: boolean;
  /**
   * A public GET whose anonymous answers may be shared (server/http/response-cache.ts): kept at most
   * `maxAgeMs` and dropped on every `dropOn` change notice. Add the bound to docs/spec-decisions.md.
   */
  cache?: CachePolicy;
  /** Success status(es); the first is used when the handler returns a plain body. */
  status: number | readonly number[];
  /** The success body's schema (one per resource, from server/schemas/), or an event stream. */
  response: ZodType<R> | EventStreamResponse;
  /** Endpoint-specific failures: status to description (the wrapper documents its own). */
  errors?: Record<number, string>;
  /**
   * Returns the success body, a reply(status, body, headers), the success body serialized already
   * (SerializedJson, for a body shared by many calls), or (event streams) a Response.
   */
  handler(input: HandlerInput<P, Q, B, A, H>): Promise<R | Reply<R> | SerializedJson<R> | Response>;
}

/** Declares an endpoint; the identity function exists for type inference. */
export function endpoint<
  P extends ZodType | undefined = undefined,
  Q extends ZodType | undefined = undefined,
  B extends ZodType | undefined = undefined,
  const A extends AuthSpec = AuthSpec,
  R = unknown,
  H extends ZodType | undefined = undefined,
>(def: EndpointDef<P, Q, B, A, R, H>): EndpointDef<P, Q, B, A, R, H> {
  return def;
}

/**
 * The same endpoint served at a second path (the two API families publish a few operations twice):
 * one declaration, so the twins cannot drift apart.
 */
export function alsoAt<T extends { path: string }>(def: T, path: string): T {
  return { ...def, path };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyEndpoint = EndpointDef<any, any, any, any, any, any>;

export function successStatuses(def: AnyEndpoint): number[] {
  return typeof def.status === 'number' ? [def.status] : [...def.status];
}

/** server/api/v1/agents.[id].invoke.post.ts for POST /api/v1/agents/{id}/invoke. */
export function routeFileName(def: Pick<AnyEndpoint, 'method' | 'path'>): string {
  const match = /^\/api(\/v1)?\/(.+)$/.exec(def.path);
  if (!match) throw new Error(`not an API path: ${def.path}`);
  const family = match[1] ? 'v1' : 'a';
  const name = match[2]!.split('/').map((segment) => segment.replace(/^\{(.+)\}$/, '[$1]'));
  return `server/api/${family}/${name.join('.')}.${def.method}.ts`;
}

/**
 * The policy of an idempotent write made with a bearer token holding `scope`, under the write limit:
 * spread into a declaration (`...bearerWrite('Jobs', 'jobs.write')`) beside its handler.
 */
export function bearerWrite<const S extends Scope>(tag: string, scope: S) {
  return {
    tags: [tag],
    auth: ['bearer'] as ['bearer'],
    scopes: [scope] as [S],
    rateLimit: 'write' as const,
    idempotent: true,
  };
}
