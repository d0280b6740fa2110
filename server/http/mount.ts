import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ZodType } from 'zod';
import { authenticate } from '../auth/authenticate';
import { currentRuntime } from '../runtime';
import { clientIp } from './client-ip';
import type { AnyEndpoint } from './endpoint';
import { ApiError, validationError } from './errors';
import { rateLimitHeaders } from './rate-limit';
import { DEFAULT_BODY_LIMIT, readJsonBody } from './read-body';

/** /api/v1/agents/{id} -> /api/v1/agents/:id */
export function honoPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

function parse<S extends ZodType>(schema: S | undefined, value: unknown, where: 'body' | 'query' | 'params') {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, where);
  return result.data;
}

function queryObject(context: Context): Record<string, string> {
  // A repeated query parameter keeps its first value.
  const out: Record<string, string> = {};
  for (const [key, value] of new URL(context.req.url).searchParams) out[key] ??= value;
  return out;
}

/**
 * Registers one endpoint: authentication, scopes, rate limit, input parsing, then the handler;
 * and its entry in the OpenAPI document.
 */
export function mountEndpoint(app: OpenAPIHono, def: AnyEndpoint): void {
  app.on(def.method.toUpperCase(), honoPath(def.path), async (context) => {
    const { config, limiter } = currentRuntime();
    const request = context.req.raw;
    const ip = clientIp(context, config.TRUST_PROXY);
    const caller = await authenticate(request, def.auth);
    for (const scope of def.scopes ?? []) {
      if (!caller || !caller.scopes.includes(scope)) {
        throw new ApiError('missing_scope', `Missing scope ${scope}`, { required_scope: scope });
      }
    }
    const params = parse(def.params, context.req.param(), 'params');
    const query = parse(def.query, queryObject(context), 'query');
    const rawBody = def.body ? await readJsonBody(request, def.bodyLimit ?? DEFAULT_BODY_LIMIT) : undefined;
    const body = parse(def.body, rawBody ?? {}, 'body');
    if (def.rateLimit) {
      const subject = limiter.policy(def.rateLimit).key === 'caller' && caller ? `w:${caller.wallet}` : `ip:${ip}`;
      const limit = await limiter.enforce(def.rateLimit, subject);
      for (const [name, value] of Object.entries(rateLimitHeaders(limit))) context.header(name, value);
    }
    const result = await def.handler({
      params,
      query,
      body,
      caller,
      request,
      ip,
      requestId: context.get('requestId' as never) as string,
      context,
    });
    return result instanceof Response ? result : context.json(result as object, (def.status ?? 200) as 200);
  });

  const security =
    def.auth === 'none'
      ? undefined
      : (def.auth === 'optional' ? (['bearer', 'api_key', 'signature'] as const) : def.auth).map((mode: string) => ({
          [mode]: [...(def.scopes ?? [])],
        }));
  const responses: Record<string, unknown> = {
    [String(def.status ?? 200)]: {
      description: 'Success',
      ...(def.response ? { content: { 'application/json': { schema: def.response } } } : {}),
    },
  };
  for (const [status, description] of Object.entries(def.errors ?? {})) {
    responses[status] = { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  app.openAPIRegistry.registerPath({
    method: def.method,
    path: def.path,
    summary: def.summary,
    description: def.description,
    tags: def.tags,
    security: def.auth === 'optional' ? [...(security ?? []), {}] : security,
    request: {
      params: def.params,
      query: def.query,
      body: def.body ? { content: { 'application/json': { schema: def.body } }, required: true } : undefined,
    },
    responses,
  } as never);
}
