import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { renderRoutes, routeFiles } from '../../scripts/api-routes';
import { routeFileName, type AnyEndpoint } from '../http/endpoint';
import { documentedStatuses } from '../http/mount';
import { createApi, openApiDocument } from './app';
import { ROUTES } from './routes';

// The OpenAPI document is valid and complete: it passes a real validator, every route file on disk
// is one registered endpoint named after its URL and method, and every served route and every
// status an endpoint can answer is in the document.

type Operation = {
  parameters?: { in: string; name: string; required?: boolean; schema: object }[];
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
};
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

const api = createApi();
const document = openApiDocument(api) as unknown as Document;
const operations = Object.entries(document.paths).flatMap(([template, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${template}`, operation })),
);
const SERVER_EXTRAS = [
  '/api/openapi.json',
  '/api/docs',
  '/api/docs/scalar.js',
  '/docs',
  // RFC 9728 Protected Resource Metadata (server/mcp/resource-metadata.ts), not an API operation.
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/api/v1/mcp',
  '/.well-known/agent-card.json',
];
const key = (def: Pick<AnyEndpoint, 'method' | 'path'>) => `${def.method.toUpperCase()} ${def.path}`;

/** Every value of `name` anywhere in the document, with its JSON pointer. */
function collect(node: unknown, name: string, at = '#'): { at: string; value: unknown }[] {
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) => [
    ...(k === name ? [{ at: `${at}/${k}`, value: v }] : []),
    ...collect(v, name, `${at}/${k}`),
  ]);
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document (swagger-parser)', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
    expect((document as unknown as { openapi: string }).openapi).toBe('3.1.0');
  });

  it('writes every pattern as a JSON Schema (ECMA-262, Unicode) regex that can match', () => {
    const patterns = collect(document, 'pattern').filter((p) => typeof p.value === 'string');
    expect(patterns.length).toBeGreaterThan(0);
    for (const { at, value } of patterns) {
      const source = value as string;
      expect(() => new RegExp(source, 'u'), at).not.toThrow();
      // A regex literal's flags written into the pattern (`.../u`) make it match nothing.
      expect(source, at).not.toMatch(/(?<!\\)\/[dgimsuyv]+$/);
    }
  });

  it('writes a nullable reference so null validates (anyOf, not allOf)', () => {
    for (const { at, value } of collect(document, 'allOf')) {
      const parts = value as Record<string, unknown>[];
      const nullable = parts.some((part) => Array.isArray(part.type) && (part.type as string[]).includes('null'));
      expect(nullable && parts.some((part) => '$ref' in part), at).toBe(false);
    }
  });

  it('resolves every $ref', () => {
    for (const { at, value } of collect(document, '$ref')) {
      const name = /^#\/components\/schemas\/(.+)$/.exec(value as string)?.[1];
      expect(name && document.components.schemas[name], `${at} -> ${String(value)}`).toBeTruthy();
    }
  });

  it('describes every JSON success response with a named component', () => {
    for (const { key: operation, operation: op } of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        const schema = response.content?.['application/json']?.schema;
        if (!status.startsWith('2') || !schema) continue;
        expect(schema.$ref, `${operation} ${status}`).toMatch(/^#\/components\/schemas\//);
      }
    }
  });

  it('documents exactly the routes that are served, with every status each endpoint declares', () => {
    const served = api.routes
      .filter((route) => route.method !== 'ALL' && !SERVER_EXTRAS.includes(route.path))
      .map((route) => `${route.method} ${route.path.replace(/:([^/]+)/g, '{$1}')}`);
    expect([...new Set(served)].sort()).toEqual(operations.map((o) => o.key).sort());
    for (const def of ROUTES) {
      const operation = document.paths[def.path]?.[def.method];
      expect(operation, key(def)).toBeDefined();
      expect(Object.keys(operation!.responses).map(Number).sort(), key(def)).toEqual(documentedStatuses(def).sort());
      const declaredParams = def.params ? Object.keys((def.params as { shape: object }).shape) : [];
      const documentedParams = (operation!.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      expect(documentedParams.sort(), key(def)).toEqual([...def.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort());
      expect(declaredParams.sort(), key(def)).toEqual(documentedParams);
      expect(Boolean(operation!.requestBody), key(def)).toBe(Boolean(def.body));
    }
  });
});

describe('route files', () => {
  it('are one endpoint each, named after its URL and method, in server/api/a and server/api/v1', async () => {
    const files = routeFiles();
    expect(files.length).toBe(ROUTES.length);
    for (const file of files) {
      const module = (await import(path.join(process.cwd(), 'server', 'api', `${file}.ts`))) as { default: AnyEndpoint };
      expect(module.default, file).toBeDefined();
      expect(routeFileName(module.default), key(module.default)).toBe(`server/api/${file}.ts`);
      expect(ROUTES, `${file} is not registered (npm run routes)`).toContain(module.default);
    }
    for (const def of ROUTES) expect(existsSync(routeFileName(def)), routeFileName(def)).toBe(true);
    expect(new Set(ROUTES.map(key)).size).toBe(ROUTES.length);
  });

  it('match server/api/routes.ts (run `npm run routes` after adding or removing one)', () => {
    expect(readFileSync(path.join(process.cwd(), 'server', 'api', 'routes.ts'), 'utf8')).toBe(renderRoutes(routeFiles()));
  });
});
