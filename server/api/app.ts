import { randomUUID } from 'node:crypto';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { ApiError } from '../http/errors';
import type { AnyEndpoint } from '../http/endpoint';
import { honoPath, mountEndpoint } from '../http/mount';
import { log } from '../log';
import { apiReference } from './docs';
import { errorSchema } from './schemas';
import { listApiKeysEndpoint, mintApiKeyEndpoint, revokeApiKeyEndpoint } from './a/api-keys';
import { endorseEndpoint, listEndorsementsEndpoint, revokeEndorsementEndpoint } from './a/endorse';
import { getAgentA } from './a/get-agent';
import { invokeA, invokeInfoA } from './a/invoke';
import { getAgentByWallet } from './a/get-agent-by-wallet';
import { graphEndpoint } from './a/graph';
import { listAgentsA } from './a/list-agents';
import { publicProfileEndpoint } from './a/public-profile';
import { registerAgentEndpoint } from './a/register-agent';
import { statsEndpoint } from './a/stats';
import { updateProfileEndpoint } from './a/update-profile';
import { getAgentB, listAgentsB, patchAgentB, upsertAgentB } from './v1/agents';
import { attestEndpoint } from './v1/attest';
import { authChallenge, authRevoke, authSession, authVerify } from './v1/auth';
import { bootstrapEndpoint } from './v1/bootstrap';
import { creditsEndpoint, depositInfoEndpoint } from './v1/credits';
import { invokeB } from './v1/invoke';
import { meStatsEndpoint } from './v1/me-stats';
import { health } from './v1/health';

// Every REST endpoint, registered explicitly: a reader who knows the URL finds its file here.
export const ENDPOINTS: AnyEndpoint[] = [
  // family A: /api
  registerAgentEndpoint,
  getAgentByWallet,
  listAgentsA,
  getAgentA,
  updateProfileEndpoint,
  listApiKeysEndpoint,
  mintApiKeyEndpoint,
  revokeApiKeyEndpoint,
  statsEndpoint,
  invokeInfoA,
  invokeA,
  listEndorsementsEndpoint,
  endorseEndpoint,
  revokeEndorsementEndpoint,
  graphEndpoint,
  publicProfileEndpoint,
  // family B: /api/v1
  health,
  authChallenge,
  authVerify,
  authRevoke,
  authSession,
  bootstrapEndpoint,
  meStatsEndpoint,
  listAgentsB,
  upsertAgentB,
  getAgentB,
  patchAgentB,
  invokeB,
  attestEndpoint,
  creditsEndpoint,
  depositInfoEndpoint,
];

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// Agents may run in browsers; credentials travel in headers, never cookies, so any origin may call.
const CORS_ALLOW_HEADERS = [
  'Authorization',
  'Content-Type',
  'X-Api-Key',
  'X-Agent-Address',
  'X-Agent-Message',
  'X-Message-Signature',
  'Idempotency-Key',
  'Last-Event-ID',
  'X-Request-Id',
].join(', ');
const CORS_EXPOSE_HEADERS = [
  'X-Request-Id',
  'Retry-After',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Location',
].join(', ');
const CORS_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';

function errorResponse(context: Context, error: ApiError, headers: Record<string, string> = {}): Response {
  return context.json(error.toBody(), error.status as 400, { ...error.headers, ...headers });
}

/** Builds the REST API: one fetch handler `(Request) => Response` for both path families. */
export function createApi(endpoints: AnyEndpoint[] = ENDPOINTS): OpenAPIHono {
  const app = new OpenAPIHono({ strict: false });

  app.use('*', async (context, next) => {
    const started = performance.now();
    const incoming = context.req.header('x-request-id');
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    context.set('requestId' as never, requestId as never);
    // Headers set before the handler are built into the response it creates; setting them on the
    // finished response instead would force a slow copy (measured: about half the throughput).
    context.header('X-Request-Id', requestId);
    context.header('Access-Control-Allow-Origin', '*');
    context.header('Access-Control-Expose-Headers', CORS_EXPOSE_HEADERS);
    if (context.req.method === 'OPTIONS' && context.req.header('access-control-request-method')) {
      return context.body(null, 204, {
        'Access-Control-Allow-Methods': CORS_METHODS,
        'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS,
        'Access-Control-Max-Age': '86400',
      });
    }
    await next();
    log.info(
      {
        request_id: requestId,
        method: context.req.method,
        path: context.req.path,
        status: context.res.status,
        duration_ms: Math.round((performance.now() - started) * 100) / 100,
      },
      'request',
    );
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

  for (const def of endpoints) mountEndpoint(app, def);

  const document = () =>
    app.getOpenAPI31Document({
      openapi: '3.1.0',
      info: {
        title: 'Vouchsafe API',
        version: '1.1.0',
        description:
          'Identity, trust and safety for autonomous agents on Base. Family A lives under /api, family B under /api/v1.',
      },
    });
  let cachedDocument: ReturnType<typeof document> | null = null;
  app.get('/api/openapi.json', (context) => context.json((cachedDocument ??= document())));
  apiReference(app);

  const routeMatchers = endpoints.map((def) => ({
    method: def.method.toUpperCase(),
    pattern: new RegExp(`^${honoPath(def.path).replace(/:[^/]+/g, '[^/]+')}/?$`),
  }));
  app.notFound((context) => {
    const allowed = routeMatchers.filter((route) => route.pattern.test(context.req.path)).map((route) => route.method);
    if (allowed.length > 0) {
      return errorResponse(
        context,
        new ApiError('method_not_allowed', `Method ${context.req.method} is not allowed on ${context.req.path}`, { allowed }),
        { Allow: [...new Set(allowed)].join(', ') },
      );
    }
    return errorResponse(context, new ApiError('not_found', `No route for ${context.req.method} ${context.req.path}`));
  });

  app.onError((error, context) => {
    if (error instanceof ApiError) return errorResponse(context, error);
    const requestId = context.get('requestId' as never) as string;
    log.error({ request_id: requestId, err: error }, 'unhandled error');
    return context.json({ error: 'Internal server error', code: 'internal_error', details: { request_id: requestId } }, 500);
  });

  return app;
}
