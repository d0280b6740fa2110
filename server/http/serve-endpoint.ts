import { authenticate, confirmSignatureClaim, type SignatureClaim } from '../auth/authenticate';
import type { Caller } from '../core/caller';
import { ApiError } from '../core/errors';
import { rateLimitHeaders, type RateLimitResult } from '../core/rate-limit';
import { SerializedJson } from './common-headers';
import { Reply, type AnyEndpoint } from './endpoint';
import { readIdempotencyKey } from './idempotency';
import {
  parseBody,
  parseHeaders,
  parseParamsAndQuery,
  requireScopes,
  runDeclared,
  scopeList,
  type DeclaredCall,
  type RawInput,
} from './policy';
import { DEFAULT_BODY_LIMIT } from './read-body';

// One REST call of a declared endpoint, whichever way the request reached this process: through Hono
// (mount.ts: the fetch handler behind the Next.js door, tests, anything the node door passes on) or
// straight from node's request (node-door.ts, server.ts). Both doors run this one function, so
// authentication, scopes, input checks, signature headers, idempotency, rate limits and the handler
// (runDeclared, policy.ts) are the same code whichever door answered; a door only reads the request
// and writes the answer.

/** The request headers the wrapper reads (Headers, or the node door's view of node's headers). */
export type HeaderReader = Pick<Headers, 'get' | 'has'>;

/** What the wrapper needs from a request, as each door can give it. */
export interface RestRequest {
  /** The URL path (no query), as the router matched it. */
  readonly path: string;
  readonly ip: string;
  readonly requestId: string;
  readonly headers: HeaderReader;
  params(): Record<string, string>;
  /** The query parameters; a repeated one keeps its first value. */
  query(): Record<string, string>;
  /** The JSON body (undefined when empty): 413 past `limit` bytes, 400 when not JSON. */
  readBody(limit: number): Promise<unknown>;
  /** The web Request (handlers that read more of the request; the node door builds it on first use). */
  readonly request: Request;
}

/** How a door writes the answer. */
export type RestAnswer = JsonAnswer | EmptyAnswer | { kind: 'response'; response: Response };
export type JsonAnswer = { kind: 'json'; status: number; body: unknown; headers: Record<string, string> };
export type EmptyAnswer = { kind: 'empty'; status: number; headers: Record<string, string> };

/** Query parameters as the wrapper reads them: a repeated one keeps its first value. */
export function firstValues(search: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of search) out[key] ??= value;
  return out;
}

/** The declared headers' values, by the names the schema writes (header names match in any letter case). */
function declaredHeaders(def: AnyEndpoint, headers: HeaderReader): Record<string, string> | undefined {
  const shape = (def.headers as { shape?: Record<string, unknown> } | undefined)?.shape;
  if (!shape) return undefined;
  const out: Record<string, string> = {};
  for (const name of Object.keys(shape)) {
    const value = headers.get(name);
    if (value !== null) out[name] = value;
  }
  return out;
}

/** A REST request as the declared policy runs it; the headers and the web Request are read only by what needs them. */
class RestCall implements DeclaredCall {
  constructor(
    private readonly rest: RestRequest,
    readonly caller: Caller | null,
    readonly raw: RawInput,
    readonly idempotency: DeclaredCall['idempotency'],
    readonly onRateLimit: DeclaredCall['onRateLimit'],
  ) {}

  get ip(): string {
    return this.rest.ip;
  }

  get requestId(): string {
    return this.rest.requestId;
  }

  get headers(): HeaderReader {
    return this.rest.headers;
  }

  /** The node door builds the web Request on first use. */
  get request(): Request {
    return this.rest.request;
  }
}

const isClaim = (value: Caller | SignatureClaim | null): value is SignatureClaim => value !== null && 'message' in value;

/**
 * Runs one request of an endpoint: authentication, scopes, input parsing, signature confirmation,
 * idempotency, rate limits, then the handler. `onLimitHeaders` receives the RateLimit headers as
 * soon as the limits pass (the door puts them on the answer, and on an error answer if the handler
 * fails). Failures are thrown (the door answers them with errorAnswer).
 */
export async function serveEndpoint(
  def: AnyEndpoint,
  rest: RestRequest,
  onLimitHeaders?: (headers: Record<string, string>) => void,
): Promise<RestAnswer> {
  // A public endpoint skips the await (and the microtask) of asking for no credentials.
  const presented = def.auth === 'none' ? null : await authenticate(rest.headers, def.auth);
  if (presented && !isClaim(presented)) requireScopes(presented, def.scopes);

  // Only what the endpoint reads is checked: an endpoint without a query ignores the query string
  // (it documents no 400 for it); one without path parameters has none to decode.
  const raw: RawInput = {
    params: def.params ? rest.params() : {},
    query: def.query ? rest.query() : {},
    headers: declaredHeaders(def, rest.headers),
  };
  const { params, query } = parseParamsAndQuery(def, raw);
  const headers = parseHeaders(def, raw.headers);
  const rawBody = def.body ? await rest.readBody(def.bodyLimit ?? DEFAULT_BODY_LIMIT) : undefined;
  raw.body = rawBody;
  const parsed = { params, query, body: parseBody(def, rawBody), headers };
  const ip = rest.ip;

  let caller: Caller | null = null;
  if (isClaim(presented)) {
    if (!def.signedAction) throw new ApiError('unauthorized', 'This endpoint does not accept signature headers');
    const action = await def.signedAction({ ...parsed, ip, wallet: presented.wallet });
    caller = await confirmSignatureClaim(presented, action, scopeList(def));
  } else {
    caller = presented;
  }

  const key = def.idempotent && caller ? readIdempotencyKey(rest.headers) : null;
  let limitHeaders: Record<string, string> | undefined;
  const onRateLimit =
    def.rateLimit && onLimitHeaders
      ? (result: RateLimitResult) => {
          limitHeaders = rateLimitHeaders(result);
          onLimitHeaders(limitHeaders);
        }
      : undefined;
  const call = new RestCall(rest, caller, raw, key ? { key, path: rest.path, rawBody } : null, onRateLimit);
  const { answer, replayed, json } = await runDeclared(def, call, parsed);
  if (replayed && answer instanceof Reply) {
    return {
      kind: 'json',
      status: answer.status,
      body: answer.body,
      headers: { ...limitHeaders, 'Idempotent-Replayed': 'true' },
    };
  }
  if (answer instanceof Response) return { kind: 'response', response: answer };
  const own = limitHeaders ? { ...limitHeaders, ...answer.headers } : answer.headers;
  if (answer.status === 204) return { kind: 'empty', status: 204, headers: own };
  // A response-cache answer is its stored JSON text, written as it is.
  return { kind: 'json', status: answer.status, body: json !== undefined ? new SerializedJson(json) : answer.body, headers: own };
}
