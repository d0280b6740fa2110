import type { Context } from 'hono';
import type { z, ZodType } from 'zod';
import type { AuthMode, Caller } from './caller';
import type { RateLimitPolicyName } from './rate-limit-policies';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * How an endpoint authenticates: 'none' (public), 'optional' (any credential, may be absent),
 * or the list of accepted credential kinds (at least one required).
 */
export type AuthSpec = 'none' | 'optional' | readonly AuthMode[];

type Out<S> = S extends ZodType ? z.output<S> : undefined;
type CallerFor<A extends AuthSpec> = A extends 'none' ? null : A extends 'optional' ? Caller | null : Caller;

export interface HandlerInput<P, Q, B, A extends AuthSpec> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  caller: CallerFor<A>;
  request: Request;
  ip: string;
  requestId: string;
  context: Context;
}

export interface EndpointDef<P = undefined, Q = undefined, B = undefined, A extends AuthSpec = AuthSpec> {
  method: HttpMethod;
  /** OpenAPI-style path, for example /api/v1/agents/{id}. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  auth: A;
  /** Every scope listed is required (403 naming the first one missing). */
  scopes?: readonly string[];
  params?: P;
  query?: Q;
  body?: B;
  /** Largest accepted request body in bytes (413 above it). Default 64 KiB. */
  bodyLimit?: number;
  rateLimit?: RateLimitPolicyName;
  /** Status of a successful response (default 200). */
  status?: number;
  /** The success body's schema, for the OpenAPI document. */
  response?: ZodType;
  /** Other documented responses: status to description. */
  errors?: Record<number, string>;
  /** Returns the JSON body of the success response, or a complete Response. */
  handler(input: HandlerInput<P, Q, B, A>): Promise<unknown>;
}

/** Declares an endpoint; the identity function exists for type inference. */
export function endpoint<
  P extends ZodType | undefined = undefined,
  Q extends ZodType | undefined = undefined,
  B extends ZodType | undefined = undefined,
  const A extends AuthSpec = AuthSpec,
>(def: EndpointDef<P, Q, B, A>): EndpointDef<P, Q, B, A> {
  return def;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyEndpoint = EndpointDef<any, any, any, any>;
