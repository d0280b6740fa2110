import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createApi, openApiDocument, type OpenApiDocument } from '../server/api/app';

// Contract checks: every response a test receives is validated against the OpenAPI document's
// schema for its route and status (ajv, formats on). A status the route does not document, or a
// body that does not match, fails the test that received it.

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  statuses: Map<string, ValidateFunction | null>;
}

let compiled: { operations: Operation[]; error: ValidateFunction } | null = null;

export function contractDocument(): OpenApiDocument {
  return openApiDocument(createApi());
}

function compile() {
  const document = contractDocument() as unknown as {
    paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>>;
    components: { schemas: Record<string, object> };
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats.default(ajv);
  // Each schema is compiled with the document's components beside it, so #/components/... resolves.
  const withComponents = (schema: object) => ({ ...schema, components: document.components });
  const operations: Operation[] = [];
  for (const [template, methods] of Object.entries(document.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}/?$`);
    for (const [method, operation] of Object.entries(methods)) {
      const statuses = new Map<string, ValidateFunction | null>();
      for (const [status, response] of Object.entries(operation.responses)) {
        const schema = response.content?.['application/json']?.schema;
        statuses.set(status, schema ? ajv.compile(withComponents(schema)) : null);
      }
      operations.push({ method: method.toUpperCase(), template, pattern, statuses });
    }
  }
  // Static paths before templated ones, as the router matches them.
  operations.sort((a, b) => a.template.split('{').length - b.template.split('{').length);
  return { operations, error: ajv.compile(withComponents({ $ref: '#/components/schemas/Error' })) };
}

function describeErrors(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .slice(0, 5)
    .map((error) => `${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`)
    .join('; ');
}

/**
 * Throws when a response does not match the document: an undocumented status for its route, a
 * body that is not the documented schema, or (for routes the API does not serve) not an Error.
 */
export function checkResponse(method: string, path: string, status: number, contentType: string | null, body: unknown): void {
  compiled ??= compile();
  const pathname = path.split('?')[0]!;
  if (!pathname.startsWith('/api/') || pathname === '/api/openapi.json' || pathname.startsWith('/api/docs')) return;
  // tRPC and Auth.js answer there through Next.js; they are not part of the REST document.
  if (pathname.startsWith('/api/trpc/') || pathname.startsWith('/api/auth/')) return;
  if (contentType?.includes('text/event-stream')) return;
  const operation = compiled.operations.find((op) => op.method === method.toUpperCase() && op.pattern.test(pathname));
  const where = `${method.toUpperCase()} ${pathname} -> ${status}`;
  if (!operation) {
    if (!compiled.error(body)) throw new Error(`contract: ${where}: not the Error shape: ${describeErrors(compiled.error)}`);
    return;
  }
  if (!operation.statuses.has(String(status))) {
    throw new Error(
      `contract: ${where}: status not documented for ${operation.method} ${operation.template} (documented: ${[...operation.statuses.keys()].join(', ')})`,
    );
  }
  const validate = operation.statuses.get(String(status));
  if (validate && !validate(body)) {
    throw new Error(`contract: ${where}: body does not match the documented schema: ${describeErrors(validate)}`);
  }
}

/** Reads a response's body (from a clone) and checks it with checkResponse. */
export async function checkFetched(request: Request, response: Response): Promise<void> {
  if (request.method === 'HEAD' || request.method === 'OPTIONS') return;
  const contentType = response.headers.get('content-type');
  if (contentType?.includes('text/event-stream')) return;
  const text = await response.clone().text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: checked as text */
  }
  const url = new URL(request.url);
  checkResponse(request.method, url.pathname + url.search, response.status, contentType, body);
}

/**
 * A fetch that checks every answer from an /api path against the document: a mismatch rejects
 * the call, so the test that made it fails. Used by the e2e suites (all their fetches) and the SDK
 * in the integration tests.
 */
export function checkedFetch(inner: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const response = await inner(request.clone());
    await checkFetched(request, response);
    return response;
  };
}
