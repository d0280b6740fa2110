// Production entry: one node:http server, two doors (ARCHITECTURE.md, "One process, two doors").
// /api/trpc, /api/auth and pages go to Next.js; every other /api path goes straight to the REST
// API (server/api/app.ts nodeListener: a declared JSON endpoint answered from node's request, the
// rest through Hono's fetch handler), which answers about 20x faster than a Next route handler.
// First, before anything else runs: keeps process.nextTick cheap for the life of the process.
import './server/http/keep-tick-shape';
import cluster from 'node:cluster';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import next from 'next';
import { createApi, nodeListener } from './server/api/app';
import { ConfigError } from './server/core/config';
import { gracefulShutdown } from './server/http/graceful-shutdown';
import { closeAllStreams } from './server/stream/open-stream';
import { ensureJobsStarted } from './server/scheduler/jobs';
import { log } from './server/core/log';
import { startRuntime, type Runtime } from './server/core/runtime';
import { edgeIndex } from './server/trust/edge-index';
import { chain, type ChainContext } from './server/chain/client';
import { markDraining } from './server/health/readiness';
import { workerRestarts } from './server/http/worker-restarts';

const NEXT_API_PREFIXES = ['/api/trpc', '/api/auth'];
const NEXT_API_FOLDERS = NEXT_API_PREFIXES.map((prefix) => `${prefix}/`);

/** True when a request path belongs to the REST API door. */
export function isRestApiPath(pathname: string): boolean {
  if (pathname === '/docs') return true;
  // /.well-known/ paths are for machines (the A2A agent card, RFC 9728 Protected Resource Metadata for
  // MCP): the REST door, never bot-checked.
  if (pathname.startsWith('/.well-known/')) return true;
  if (pathname !== '/api' && !pathname.startsWith('/api/')) return false;
  for (let i = 0; i < NEXT_API_PREFIXES.length; i++) {
    if (pathname === NEXT_API_PREFIXES[i] || pathname.startsWith(NEXT_API_FOLDERS[i]!)) return false;
  }
  return true;
}

/** Worker processes: WEB_CONCURRENCY (default one per core) on PostgreSQL; always one on PGlite. */
export function workerCount(runtime: Runtime): number {
  if (runtime.database.kind === 'pglite') return 1;
  return runtime.config.WEB_CONCURRENCY ?? os.availableParallelism();
}

/** Shutdown: drain within this, then the process exits whatever is left. */
const STOP_WITHIN_MS = 10_000;

async function openRuntime(): Promise<Runtime> {
  try {
    return await startRuntime();
  } catch (error) {
    const message = error instanceof ConfigError ? error.message : `startup failed: ${(error as Error).message}`;
    console.error(message.split('\n')[0]);
    process.exit(1);
  }
}

/**
 * The chain before the first request: with no CHAIN_RPC_URL this starts the bundled devnet
 * (deploying the fixtures on the first start); a worker uses its primary's. A node that fails
 * now is retried on use and shows in /api/v1/health; the server still serves everything else.
 */
async function openChain(): Promise<ChainContext | null> {
  return chain().then(
    (context) => {
      log.info(
        {
          chain: context.source,
          rpc: context.source === 'devnet' ? context.rpcUrl : undefined,
          platformToken: context.addresses.platformToken,
          treasury: context.addresses.treasury,
        },
        'chain ready',
      );
      return context;
    },
    (error: Error) => {
      log.error({ err: error.message }, 'chain not available at start');
      return null;
    },
  );
}

async function main() {
  const runtime = await openRuntime();
  const workers = workerCount(runtime);
  if (cluster.isPrimary && workers > 1) return runPrimary(runtime, workers);
  if (runtime.database.kind === 'pglite' && (runtime.config.WEB_CONCURRENCY ?? 1) > 1) {
    log.warn('WEB_CONCURRENCY is ignored on the embedded database (one writer): serving from one process');
  }
  await openChain();
  // Scheduled jobs and the webhook worker: in the only process, or in the primary (runPrimary).
  if (cluster.isPrimary) ensureJobsStarted(runtime);
  await serve(runtime);
}

/**
 * WEB_CONCURRENCY > 1 (PostgreSQL): this process ran the migrations (startRuntime), starts the
 * singletons (the bundled devnet, scheduled jobs, the webhook worker) and forks the workers, which
 * share the port (node:cluster) and the devnet. SIGTERM reaches every worker; each drains its own
 * requests; the primary exits when all have, or ends them at STOP_WITHIN_MS.
 */
async function runPrimary(runtime: Runtime, count: number): Promise<void> {
  const context = await openChain();
  ensureJobsStarted(runtime);
  const env: Record<string, string> = {};
  if (context?.source === 'devnet') env.SHARED_DEVNET_RPC_URL = context.rpcUrl;
  let stopping = false;
  const startedAt = new Map<number, number>();
  const fork = () => {
    if (stopping) return;
    const worker = cluster.fork(env);
    startedAt.set(worker.id, Date.now());
  };
  const restarts = workerRestarts();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    const livedMs = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    const decision = restarts(livedMs);
    if ('giveUp' in decision) {
      log.fatal(
        { pid: worker.process.pid, code, signal, early_deaths: decision.earlyDeaths },
        'workers keep dying as they start; stopping',
      );
      shutdown('SIGTERM', 1);
      return;
    }
    log.error({ pid: worker.process.pid, code, signal, restart_in_ms: decision.restartInMs }, 'worker exited; starting another');
    setTimeout(fork, decision.restartInMs).unref();
  });
  for (let i = 0; i < count; i++) fork();
  log.info({ workers: count, port: runtime.config.PORT }, 'primary started its workers');

  function shutdown(signal: NodeJS.Signals, exitCode = 0) {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: workers finish their in-flight requests');
    const running = Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined);
    const exited = running.map((worker) => new Promise<void>((resolve) => worker.process.once('exit', () => resolve())));
    for (const worker of running) worker.process.kill(signal);
    const force = setTimeout(() => {
      for (const worker of running) worker.process.kill('SIGKILL');
    }, STOP_WITHIN_MS);
    void Promise.all(exited)
      .then(() => runtime.close())
      .catch((error) => log.error({ err: error }, 'closing the runtime failed'))
      .finally(() => {
        clearTimeout(force);
        log.info('stopped');
        process.exit(exitCode);
      });
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/** One serving process: the only one, or a worker of runPrimary. */
async function serve(runtime: Runtime): Promise<void> {
  // Declared JSON endpoints straight from node's request; the rest of the REST door through Hono.
  const apiListener = nodeListener(createApi());
  const nextApp = next({ dev: false, dir: process.cwd(), port: runtime.config.PORT });
  await nextApp.prepare();
  const nextHandler = nextApp.getRequestHandler();

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = request.url ?? '/';
    const query = url.indexOf('?');
    const pathname = query === -1 ? url : url.slice(0, query);
    if (isRestApiPath(pathname)) return apiListener(request, response);
    // Next's routes (tRPC) read the client from the last X-Forwarded-For entry: without a trusted
    // proxy that is the socket's address, never what the client wrote, as the REST door does.
    if (!runtime.config.TRUST_PROXY) request.headers['x-forwarded-for'] = request.socket.remoteAddress ?? 'unknown';
    void nextHandler(request, response);
  });
  server.keepAliveTimeout = 65_000;
  // The connection graph's edge index loads once per serving process (1-2 s at 1,000,000 edges): now, in the
  // background, rather than in the first graph request.
  void edgeIndex(runtime)
    .ready()
    .catch((error: unknown) => log.warn({ err: error }, 'loading the edge index failed: the first graph request loads it'));
  server.listen(runtime.config.PORT, () => {
    log.info(
      {
        port: runtime.config.PORT,
        database: runtime.database.kind,
        url: runtime.config.PUBLIC_BASE_URL,
        worker: cluster.isWorker ? cluster.worker?.id : undefined,
      },
      'vouchsafe listening',
    );
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const delay = runtime.config.SHUTDOWN_DELAY_MS;
    log.info({ signal, delay_ms: delay }, 'shutting down: finishing in-flight requests');
    // /api/v1/health/ready answers 503 from now on; for SHUTDOWN_DELAY_MS the process still takes new
    // requests, until the load balancer's health checks have taken it out of rotation.
    markDraining();
    // Whatever still runs then (a hung database close) does not keep the process past the limit.
    setTimeout(() => process.exit(1), STOP_WITHIN_MS).unref();
    setTimeout(() => {
      // Open event streams (and any opened from now on) get a `reconnect` event and end, so they do
      // not hold the shutdown; their clients reconnect through the load balancer with Last-Event-ID.
      closeAllStreams('shutdown');
      void gracefulShutdown(
        server,
        () => runtime.close().catch((error) => log.error({ err: error }, 'closing the runtime failed')),
        STOP_WITHIN_MS - 2000 - delay,
      ).then(() => {
        log.info('stopped');
        process.exit(0);
      });
    }, delay);
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  // A worker whose primary is gone stops too.
  if (cluster.isWorker) process.on('disconnect', () => shutdown('disconnect'));
}

// Runs when started as the entry point (npm start), not when a test imports isRestApiPath.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  // A failure to start (no production build, a bad database URL) ends the process with a message instead
  // of leaving it running with nothing listening; its children (the devnet's anvil) stop with it.
  main().catch((error: unknown) => {
    log.fatal({ err: error instanceof Error ? error.message : String(error) }, 'could not start');
    console.error(`server.ts: could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
