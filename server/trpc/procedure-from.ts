import { randomUUID } from 'node:crypto';
import type { Address } from 'viem';
import type { z, ZodType } from 'zod';
import type { EndpointDef } from '../http/endpoint';
import { callDeclared, signedBodyOnly, type RawInput } from '../http/policy';
import { publicProcedure, sessionCaller, walletProcedure } from './init';

// A UI procedure derived from a REST endpoint's declaration: the session (the wallet signed in with
// SIWE) is the caller, and the call runs through the same policy as the REST door (server/http/policy.ts):
// scopes, the endpoint's input schemas, body limit, rate limits with the same subject rule, and the same
// handler. Every call inside a tRPC batch is a call of its own, checked and counted once.

type Part<K extends string, S> = S extends ZodType ? { [key in K]: z.input<S> } : unknown;

/** The procedure's input without a mapping: the REST request's parts, `{params, query, body}` as declared. */
export type RestInput<E> =
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  E extends EndpointDef<infer P, infer Q, infer B, any, any> ? Part<'params', P> & Part<'query', Q> & Part<'body', B> : never;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Success<E> = E extends EndpointDef<any, any, any, any, infer R> ? R : never;

/** Maps the procedure's input (and the session's wallet, for endpoints whose body names it) to the REST request's parts. */
export type MapInput<In> = (input: In, session: { wallet: Address | null }) => RawInput;

const LOCAL_REQUEST = 'http://trpc.local/api/trpc';

function inputObject<In>(raw: unknown): In {
  if (raw === undefined) return {} as In;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('The input must be an object');
  return raw as In;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function procedureFrom<E extends EndpointDef<any, any, any, any, any>, In = RestInput<E>>(
  def: E,
  mapInput?: MapInput<In>,
  /** signedIn: the page needs a session even where REST needs no credential (the body names the session's wallet). */
  options: { signedIn?: boolean } = {},
) {
  const signedIn = options.signedIn ?? Array.isArray(def.auth);
  const base = (signedIn ? walletProcedure : publicProcedure)
    .meta({ endpoint: def })
    .input((raw: unknown) => inputObject<In>(raw));
  const run = async ({
    input,
    ctx,
  }: {
    input: unknown;
    ctx: { wallet: Address | null; clientIp: string; request?: Request };
  }) => {
    // As over REST, an endpoint without authentication has no caller (its limits count per IP); nor
    // has one authorized by its signed body alone (the session does not stand in for the signature).
    const caller = ctx.wallet && def.auth !== 'none' && !signedBodyOnly(def) ? await sessionCaller(ctx.wallet) : null;
    const raw = mapInput ? mapInput(input as In, { wallet: ctx.wallet }) : (input as RawInput);
    return (await callDeclared(def, {
      caller,
      source: 'session',
      raw,
      ip: ctx.clientIp,
      request: ctx.request ?? new Request(LOCAL_REQUEST, { method: 'POST' }),
      requestId: randomUUID(),
    })) as Awaited<Success<E>>;
  };
  return def.method === 'get' ? base.query(run) : base.mutation(run);
}

/**
 * procedureFrom() for a GET endpoint, typed as a query (the declaration's method is not a literal
 * type, so procedureFrom's answer is typed as either; the UI needs a query's queryOptions()).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function queryFrom<E extends EndpointDef<any, any, any, any, any>, In = RestInput<E>>(
  def: E,
  mapInput?: MapInput<In>,
  options: { signedIn?: boolean } = {},
) {
  if (def.method !== 'get') throw new Error(`queryFrom: ${def.method.toUpperCase()} ${def.path} is not a GET endpoint`);
  return procedureFrom<E, In>(def, mapInput, options) as Extract<
    ReturnType<typeof procedureFrom<E, In>>,
    { _def: { type: 'query' } }
  >;
}
