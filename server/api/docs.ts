import path from 'node:path';
import { readFile } from 'node:fs/promises';
import type { OpenAPIHono } from '@hono/zod-openapi';

// The interactive reference (Scalar), served with its script from our own origin so it works
// offline and tells no third party who reads it: Scalar's default fonts (fonts.scalar.com) and its
// telemetry and its hosted helpers (agent, MCP) are off, the icon is the UI's own; test requests go
// straight to this instance (no proxy). e2e/ui/first-user.spec.ts checks every request is same-origin.
const CONFIGURATION = JSON.stringify({
  withDefaultFonts: false,
  telemetry: false,
  favicon: '/favicon.svg',
  mcp: { disabled: true },
  agent: { disabled: true },
}).replaceAll('"', '&quot;');

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Vouchsafe API reference</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
  </head>
  <body>
    <script id="api-reference" data-url="/api/openapi.json" data-configuration="${CONFIGURATION}"></script>
    <script src="/api/docs/scalar.js"></script>
  </body>
</html>`;

let script: Promise<Buffer> | null = null;

export function apiReference(app: OpenAPIHono): void {
  app.get('/api/docs', (context) => context.html(PAGE));
  app.get('/docs', (context) => context.html(PAGE));
  app.get('/api/docs/scalar.js', async (context) => {
    script ??= readFile(
      /*turbopackIgnore: true*/ path.join(
        process.cwd(),
        'node_modules',
        '@scalar',
        'api-reference',
        'dist',
        'browser',
        'standalone.js',
      ),
    );
    return context.body(new Uint8Array(await script), 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=86400',
    });
  });
}
