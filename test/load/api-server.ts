// The REST API for the load tests that run it in a process of their own, so that its memory and
// latency are the server's alone (load/pipeline-server.ts, load/backpressure-server.ts): the runtime
// and the API (no UI, no chain) on a real HTTP server, on a copy of the test template (PGlite, on disk
// in DATA_DIR as server.ts opens it) or on the schema the test made (PostgreSQL: DATABASE_URL).
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApi, nodeListener } from '../../server/api/app';
import { disableChain } from '../../server/chain/client';
import { startRuntime, type Runtime } from '../../server/core/runtime';
import type { TestApp } from '../harness';
import { door } from './http-client';
import { seedPgliteDataDir } from './seed-pglite';

export interface ApiServer {
  runtime: Runtime;
  base: string;
  /** For signIn() against this server. */
  app: TestApp;
}

/** Starts the API on a free loopback port; `env` adds to (or overrides) the configuration below. */
export async function startApiServer(template: string, env: Record<string, string> = {}): Promise<ApiServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vouchsafe-load-'));
  if (!process.env.DATABASE_URL) await seedPgliteDataDir(template, dataDir);
  const runtime = await startRuntime({
    env: {
      DATABASE_URL: process.env.DATABASE_URL ?? '',
      DATA_DIR: dataDir,
      ALLOW_PRIVATE_URLS: 'true',
      LOG_LEVEL: 'silent',
      // The loops send far more than the write policy allows a caller: what is measured is the server.
      RATE_LIMIT_WRITE: '1000000/1m',
      ...env,
    },
  });
  disableChain(runtime);
  const server = createServer(nodeListener(createApi()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { runtime, base, app: door(base) };
}
