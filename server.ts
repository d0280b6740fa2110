// Production entry: one node:http server, two doors (ARCHITECTURE.md, "One process, two doors").
// /api/trpc, /api/auth and pages go to Next.js; every other /api path goes straight to the REST
// API's fetch handler, which answers about 20x faster than a Next route handler.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import next from 'next';
import { createApi } from './server/api/app';
import { ConfigError } from './server/core/config';
import { gracefulShutdown } from './server/http/graceful-shutdown';
import { closeAllStreams } from './server/stream/open-stream';
import { ensureJobsStarted } from './server/scheduler/jobs';
import { log } from './server/core/log';
import { startRuntime, type Runtime } from './server/core/runtime';
import { chain } from './server/chain/client';

const NEXT_API_PREFIXES = ['/api/trpc', '/api/auth'];

/** True when a request path belongs to the REST API door. */
export function isRestApiPath(pathname: string): boolean {
  if (pathname === '/docs') return true;
  if (pathname !== '/api' && !pathname.startsWith('/api/')) return false;
  return !NEXT_API_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

async function main() {
  let runtime: Runtime;
  try {
    runtime = await startRuntime();
  } catch (error) {
    const message = error instanceof ConfigError ? error.message : `startup failed: ${(error as Error).message}`;
    console.error(message.split('\n')[0]);
    process.exit(1);
  }
  // The chain before the first request: with no CHAIN_RPC_URL this starts the bundled devnet
  // (deploying the fixtures on the first start). A node that fails now is retried on use and
  // shows in /api/v1/health; the server still serves everything else.
  await chain().then(
    (context) =>
      log.info(
        {
          chain: context.source,
          rpc: context.source === 'devnet' ? context.rpcUrl : undefined,
          platformToken: context.addresses.platformToken,
          treasury: context.addresses.treasury,
        },
        'chain ready',
      ),
    (error: Error) => log.error({ err: error.message }, 'chain not available at start'),
  );
  ensureJobsStarted(runtime);
  const api = createApi();
  const apiListener = getRequestListener(api.fetch);
  const nextApp = next({ dev: false, dir: process.cwd(), port: runtime.config.PORT });
  await nextApp.prepare();
  const nextHandler = nextApp.getRequestHandler();

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const pathname = (request.url ?? '/').split('?')[0]!;
    if (isRestApiPath(pathname)) return void apiListener(request, response);
    // Next's routes (tRPC) read the client from the last X-Forwarded-For entry: without a trusted
    // proxy that is the socket's address, never what the client wrote, as the REST door does.
    if (!runtime.config.TRUST_PROXY) request.headers['x-forwarded-for'] = request.socket.remoteAddress ?? 'unknown';
    void nextHandler(request, response);
  });
  server.keepAliveTimeout = 65_000;
  server.listen(runtime.config.PORT, () => {
    log.info(
      { port: runtime.config.PORT, database: runtime.database.kind, url: runtime.config.PUBLIC_BASE_URL },
      'vouchsafe listening',
    );
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    // Open event streams get a `reconnect` event and end, so they do not hold the shutdown.
    closeAllStreams('shutdown');
    void gracefulShutdown(server, () =>
      runtime.close().catch((error) => log.error({ err: error }, 'closing the runtime failed')),
    ).then(() => {
      log.info('stopped');
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

// Runs when started as the entry point (npm start), not when a test imports isRestApiPath.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) void main();
