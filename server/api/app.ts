import type { IncomingMessage, ServerResponse } from 'node:http';
import { OpenAPIHono } from '@hono/zod-openapi';
import { getRequestListener } from '@hono/node-server';
import type { Context } from 'hono';
import { cardHeaders, platformCard } from '../a2a/agent-card';
import { ApiError } from '../core/errors';
import type { DoorEnv } from '../http/client-ip';
import type { AnyEndpoint } from '../http/endpoint';
import { commonHeadersWait, requestIdFrom, setCommonHeaders } from '../http/common-headers';
import { errorAnswer } from '../http/error-answer';
import { mountEndpoint } from '../http/mount';
import { nodeDoor } from '../http/node-door';
import { logRequest, requestLogOn } from '../http/request-log';
import { routeTable, type RouteTable } from '../http/route-table';
import { apiReference } from './docs';
import { errorSchema } from '../schemas/common';
import { ROUTES } from './routes';
import { MCP_PATH, PRM_PATH, protectedResourceMetadata } from '../mcp/resource-metadata';

/** The platform's A2A AgentCard (served beside the API; every /.well-known/ path goes to this door). */
export const WELL_KNOWN_AGENT_CARD = '/.well-known/agent-card.json';

// Agents may run in browsers; credentials travel in headers, never cookies, so any origin may call.
const CORS_ALLOW_HEADERS = [
  'Authorization',
  'Content-Type',
  'X-Api-Key',
  'X-Agent-Address',
  'X-Agent-Message',
  'X-Message-Signature',
  'Idempotency-Key',
  // x402 (docs/payments.md)
  'PAYMENT-SIGNATURE',
  'Last-Event-ID',
  'X-Request-Id',
  // Model Context Protocol clients (POST /api/v1/mcp)
  'Mcp-Protocol-Version',
  'Mcp-Session-Id',
].join(', ');
const CORS_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';

/**
 * One request header. Under node:http it is read from the node request: asking the Request for
 * its headers would copy every header into a Headers object (about 2 µs), which a request that
 * reads no other header (a public read) never needs.
 */
function requestHeader(context: Context, name: string): string | undefined {
  const incoming = (context.env as DoorEnv | undefined)?.incoming;
  if (!incoming) return context.req.header(name);
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

async function logged(context: Context, requestId: string, next: () => Promise<void>): Promise<void> {
  const started = performance.now();
  const wait = commonHeadersWait(context);
  if (!wait) setCommonHeaders(context, requestId);
  await next();
  if (wait) setCommonHeaders(context, requestId);
  logRequest(requestId, context.req.method, context.req.path, context.res.status, started);
}

function errorResponse(context: Context, error: ApiError, headers: Record<string, string> = {}): Response {
  return context.json(error.toBody(), error.status as 400, { ...error.headers, ...headers });
}

export type OpenApiDocument = ReturnType<OpenAPIHono['getOpenAPI31Document']>;

/**
 * The generator writes a nullable reference as allOf [$ref, {type: [object, null]}], which no
 * validator lets null through; JSON Schema 2020-12 says it as anyOf [$ref, {type: null}].
 */
function fixNullableRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(fixNullableRefs);
  if (!node || typeof node !== 'object') return node;
  const entries = Object.entries(node).map(([key, value]) => [key, fixNullableRefs(value)] as const);
  const object = Object.fromEntries(entries) as Record<string, unknown>;
  const allOf = object.allOf as Record<string, unknown>[] | undefined;
  if (
    allOf?.length === 2 &&
    typeof allOf[0]?.$ref === 'string' &&
    Array.isArray(allOf[1]?.type) &&
    (allOf[1]!.type as string[]).includes('null') &&
    Object.keys(allOf[1]!).length === 1
  ) {
    const { allOf: _replaced, ...rest } = object;
    return { ...rest, anyOf: [allOf[0], { type: 'null' }] };
  }
  return object;
}

/**
 * The generator writes a regex with flags as `source/flags` (`^[^\\p{Cc}]*$/u`), a pattern that
 * matches nothing. JSON Schema patterns are ECMA-262 with Unicode semantics, so the `u` (or `v`)
 * flag is dropped; any other flag changes the meaning and cannot be documented, so it stops the
 * build of the document. (A `/` inside a regex source is always escaped, so an unescaped slash
 * followed by flags at the end can only be this.)
 */
function fixPatternFlags(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(fixPatternFlags);
  if (!node || typeof node !== 'object') return node;
  const object = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, fixPatternFlags(value)])) as Record<
    string,
    unknown
  >;
  if (typeof object.pattern === 'string') {
    const match = /(?<!\\)\/([dgimsuyv]+)$/.exec(object.pattern);
    if (match) {
      const unsupported = match[1]!.replace(/[uv]/g, '');
      if (unsupported) throw new Error(`pattern ${object.pattern}: the flags ${unsupported} cannot be written in JSON Schema`);
      object.pattern = object.pattern.slice(0, match.index);
    }
  }
  return object;
}

/** The OpenAPI 3.1 document of an API built by createApi(). */
export function openApiDocument(app: OpenAPIHono): OpenApiDocument {
  return fixPatternFlags(
    fixNullableRefs(
      app.getOpenAPI31Document({
        openapi: '3.1.0',
        info: {
          title: 'Vouchsafe API',
          version: '1.1.0',
          description:
            'Identity, trust and safety for autonomous agents on Base. Family A lives under /api, family B under /api/v1. Errors always have the shape `{error, code, details}`.',
        },
        servers: [{ url: '/', description: 'This deployment' }],
      }),
    ),
  ) as OpenApiDocument;
}

/** Builds the REST API: one fetch handler `(Request) => Response` for both path families. */
export function createApi(endpoints: AnyEndpoint[] = ROUTES): OpenAPIHono {
  const app = new OpenAPIHono({ strict: false });

  // Not an async function: without the request log (LOG_LEVEL above info) it returns the handler's
  // promise as it is, one promise and one microtask fewer per request.
  app.use('*', (context, next) => {
    const requestId = requestIdFrom(requestHeader(context, 'x-request-id'));
    context.set('requestId' as never, requestId as never);
    if (context.req.method === 'OPTIONS' && requestHeader(context, 'access-control-request-method')) {
      setCommonHeaders(context, requestId);
      return Promise.resolve(
        context.body(null, 204, {
          'Access-Control-Allow-Methods': CORS_METHODS,
          'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS,
          'Access-Control-Max-Age': '86400',
        }),
      );
    }
    // The request log line costs a clock read and an object per request: only when it is written.
    if (requestLogOn()) return logged(context, requestId, next);
    // Under node:http the headers go on once the answer is known: a JSON answer of a declared
    // endpoint carries them itself (jsonAnswer), any other answer gets them on the node response.
    if (!commonHeadersWait(context)) {
      setCommonHeaders(context, requestId);
      return next();
    }
    return next().then(() => setCommonHeaders(context, requestId));
  });

  app.openAPIRegistry.register('Error', errorSchema);
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  app.openAPIRegistry.registerComponent('securitySchemes', 'api_key', { type: 'apiKey', in: 'header', name: 'X-Api-Key' });
  app.openAPIRegistry.registerComponent('securitySchemes', 'signature', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Message-Signature',
    description:
      'EIP-191 signature of X-Agent-Message by X-Agent-Address; the message ends with a Unix timestamp (5 minutes) and is accepted once.',
  });

  app.openAPIRegistry.registerComponent('securitySchemes', 'query_token', {
    type: 'apiKey',
    in: 'query',
    name: 'token',
    description: 'A bearer token in the token query parameter, where the Authorization header cannot be set (EventSource).',
  });

  for (const def of endpoints) mountEndpoint(app, def);

  // RFC 9728 Protected Resource Metadata (MCP authorization): public, never bot-checked.
  app.get(PRM_PATH, (context) => context.json(protectedResourceMetadata('')));
  app.get(`${PRM_PATH}${MCP_PATH}`, (context) => context.json(protectedResourceMetadata(MCP_PATH)));

  let cachedDocument: OpenApiDocument | null = null;
  app.get('/api/openapi.json', (context) => context.json((cachedDocument ??= openApiDocument(app))));
  apiReference(app);
  // The platform's own A2A AgentCard (docs/a2a.md): a machine path, outside /api and the OpenAPI document.
  app.get(WELL_KNOWN_AGENT_CARD, async (context) => {
    const card = await platformCard();
    return context.json(card, 200, cardHeaders(card));
  });

  const table = routeTable(endpoints);
  tables.set(app, table);
  app.notFound((context) => {
    const allowed = table.methodsAt(context.req.path);
    if (allowed.length > 0) {
      return errorResponse(
        context,
        new ApiError('method_not_allowed', `Method ${context.req.method} is not allowed on ${context.req.path}`, { allowed }),
        { Allow: allowed.join(', ') },
      );
    }
    return errorResponse(context, new ApiError('not_found', `No route for ${context.req.method} ${context.req.path}`));
  });

  app.onError((error, context) => {
    const failed = errorAnswer(error, context.get('requestId' as never) as string);
    return context.json(failed.body as object, failed.status as 500, failed.headers);
  });

  return app;
}

/** The route table of each app createApi() built (its endpoints in registration order). */
const tables = new WeakMap<OpenAPIHono, RouteTable>();

/**
 * The app behind node:http (server.ts, the tests' real servers): a declared JSON endpoint is answered
 * straight from node's request (server/http/node-door.ts), anything else through Hono
 * (@hono/node-server).
 */
export function nodeListener(app: OpenAPIHono): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
  const table = tables.get(app);
  if (!table) throw new Error('nodeListener: the app was not built by createApi()');
  return nodeDoor(table, getRequestListener(app.fetch));
}
