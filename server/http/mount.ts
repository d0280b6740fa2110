import { z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { currentRuntime } from '../core/runtime';
import { clientIp } from './client-ip';
import { jsonAnswer } from './common-headers';
import { successStatuses, type AnyEndpoint } from './endpoint';
import { scopeList, signedBodyOnly } from './policy';
import { readJsonBody } from './read-body';
import { firstValues, serveEndpoint, type RestRequest } from './serve-endpoint';

/** /api/v1/agents/{id} -> /api/v1/agents/:id */
export function honoPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

const acceptsMode = (def: AnyEndpoint, mode: string): boolean => Array.isArray(def.auth) && def.auth.includes(mode);

/** The fields an object schema declares (none for another schema). */
const schemaFields = (schema: unknown): string[] => Object.keys((schema as { shape?: object } | undefined)?.shape ?? {});

/** The failures the wrapper itself can answer, documented for every endpoint that can meet them. */
function wrapperErrors(def: AnyEndpoint): Record<number, string> {
  const errors: Record<number, string> = {};
  if (def.params || def.query || def.body || def.idempotent) errors[400] = 'Invalid request (details.fields names each field)';
  if (def.auth !== 'none') errors[401] = 'Missing, invalid or expired authentication';
  if (signedBodyOnly(def)) errors[401] = 'Missing, bad, stale or reused signature';
  if (def.scopes?.length) errors[403] = `Missing scope (${scopeList(def).join(', ')})`;
  if (def.idempotent) {
    errors[409] = 'A request with this Idempotency-Key is still being processed';
    errors[422] = 'The Idempotency-Key was used for a different request';
  }
  if (def.body) errors[413] = 'Request body too large';
  if (def.rateLimit) errors[429] = 'Rate limit exceeded (Retry-After says when to retry)';
  errors[500] = 'Internal error (details.request_id)';
  // Any request may find the database unreachable (docs/reliability.md): 503 with Retry-After.
  // (Not where 503 is already one of the endpoint's own answers: the readiness probe.)
  const own503 = successStatuses(def).includes(503);
  if (!own503) errors[503] = 'The database is unavailable (service_unavailable; Retry-After says when to retry)';
  // Credentials and signed bodies may be contract-wallet signatures, checked through the chain.
  if (def.auth !== 'none' || def.body) {
    errors[502] = 'The chain node failed (chain_error), for example while checking a contract-wallet signature';
    if (!own503)
      errors[503] =
        'The database is unavailable (service_unavailable, Retry-After) or the chain node cannot be reached (chain_unavailable, Retry-After)';
    errors[504] = 'The chain node did not answer in time (chain_timeout)';
  }
  return errors;
}

/** Every status an endpoint documents: its success statuses and every failure. */
export function documentedStatuses(def: AnyEndpoint): number[] {
  const failures = { ...wrapperErrors(def), ...(def.errors ?? {}) };
  return [...successStatuses(def), ...Object.keys(failures).map(Number)];
}

/** Refuses, at start, a declaration the wrapper could not honour. */
function checkDefinition(def: AnyEndpoint): void {
  const name = `${def.method.toUpperCase()} ${def.path}`;
  if ((acceptsMode(def, 'signature') || acceptsMode(def, 'signed_body')) && !def.signedAction) {
    throw new Error(`${name} accepts signed messages but declares no signedAction`);
  }
  if (acceptsMode(def, 'signed_body')) {
    const fields = [...(typeof def.signer === 'function' ? [] : [def.signer ?? 'signer']), 'message', 'signature'];
    const missing = fields.filter((field) => !schemaFields(def.body).includes(field));
    if (!def.signer || missing.length) throw new Error(`${name} accepts a signed body but its body lacks ${missing.join(', ')}`);
  }
  if (acceptsMode(def, 'query_token') && !schemaFields(def.query).includes('token')) {
    throw new Error(`${name} accepts a query token but its query declares no token`);
  }
  if (successStatuses(def).length === 0) throw new Error(`${def.method.toUpperCase()} ${def.path} declares no success status`);
}

/** A request that came through Hono, as the wrapper reads it. */
function honoRequest(context: Context): RestRequest {
  const request = context.req.raw;
  return {
    path: context.req.path,
    ip: clientIp(context, currentRuntime().config.TRUST_PROXY),
    requestId: context.get('requestId' as never) as string,
    get headers() {
      return request.headers;
    },
    params: () => context.req.param() as Record<string, string>,
    query: () => firstValues(new URL(context.req.url).searchParams),
    readBody: (limit) => readJsonBody(request, limit),
    request,
  };
}

/**
 * Registers one endpoint with Hono: the request through serveEndpoint (authentication, scopes, input
 * parsing, signature confirmation, idempotency, rate limits, then the handler), the answer through
 * Hono; and its entry in the OpenAPI document.
 */
export function mountEndpoint(app: OpenAPIHono, def: AnyEndpoint): void {
  checkDefinition(def);
  app.on(def.method.toUpperCase(), honoPath(def.path), async (context) => {
    const answer = await serveEndpoint(def, honoRequest(context), (headers) => {
      // On the answer, and through Hono on an error answer if the handler fails.
      for (const name in headers) context.header(name, headers[name]);
    });
    if (answer.kind === 'response') return answer.response;
    if (answer.kind === 'empty') return context.body(null, 204, answer.headers);
    return jsonAnswer(context, answer.status, answer.body, answer.headers);
  });
  registerDocument(app, def);
}

const idempotencyHeader = z.object({
  'Idempotency-Key': z.string().max(255).optional().openapi({
    description: 'Repeat the same request with the same key to get the first answer again; nothing happens twice (24 h)',
  }),
});

function registerDocument(app: OpenAPIHono, def: AnyEndpoint): void {
  // A signed body is no security scheme (OpenAPI has none in the body): the body's fields say it.
  const modes: readonly string[] =
    def.auth === 'none' ? [] : def.auth === 'optional' ? ['bearer', 'api_key', 'signature'] : def.auth;
  const schemes = modes.filter((mode) => mode !== 'signed_body').map((mode) => ({ [mode]: scopeList(def) }));
  const security =
    schemes.length === 0 ? undefined : def.auth === 'optional' || acceptsMode(def, 'signed_body') ? [...schemes, {}] : schemes;
  const content =
    'kind' in def.response
      ? { 'text/event-stream': { schema: { type: 'string', description: def.response.description } } }
      : { 'application/json': { schema: def.response } };
  const responses: Record<string, unknown> = {};
  for (const status of successStatuses(def)) {
    responses[String(status)] = status === 204 ? { description: 'No content' } : { description: 'Success', content };
  }
  const failures: Record<number, string> = { ...wrapperErrors(def) };
  for (const [status, description] of Object.entries(def.errors ?? {})) {
    const own = failures[Number(status)];
    failures[Number(status)] = own && Number(status) !== 500 ? `${description}; ${own}` : description;
  }
  for (const [status, description] of Object.entries(failures)) {
    responses[status] = { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  // The signed text with each request field shown as <name>, for the description.
  const placeholders = new Proxy({}, { get: (_target, name) => `<${String(name)}>` });
  const signedText =
    def.signedAction && (def.auth === 'optional' || acceptsMode(def, 'signature'))
      ? def.signedAction({ params: placeholders, query: placeholders, body: placeholders, ip: '', wallet: '<wallet>' } as never)
      : null;
  const signed =
    typeof signedText === 'string'
      ? `\n\nSignature headers: X-Agent-Message must be exactly \`${signedText} <unix seconds>\` (within 5 minutes); it authorizes this operation only, once.`
      : '';
  const declared = def.headers as z.ZodObject | undefined;
  const headers = def.idempotent ? (declared ? idempotencyHeader.extend(declared.shape) : idempotencyHeader) : declared;
  app.openAPIRegistry.registerPath({
    method: def.method,
    path: def.path,
    summary: def.summary,
    description: (def.description ?? '') + signed || undefined,
    tags: def.tags,
    security,
    request: {
      params: def.params,
      query: def.query,
      body: def.body ? { content: { 'application/json': { schema: def.body } }, required: true } : undefined,
      headers,
    },
    responses,
  } as never);
}
