import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { parsePostgresUrl } from '../server/core/db/open';
import { buildIsStale } from '../scripts/build-state.mjs';

/** Builds the production app when the build is missing or older than the sources. */
export function ensureProductionBuild(): void {
  if (!buildIsStale()) return;
  const build = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], { stdio: 'inherit', timeout: 600_000 });
  if (build.status !== 0) throw new Error(`next build failed: ${build.status}`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const port = (probe.address() as { port: number }).port;
      probe.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
  stop(): Promise<number | null>;
}

/**
 * Starts the production entry (server.ts) as `npm start` does, or, with door 'next', the same build
 * under `next start` (the REST API then answers through app/api/[...path]/route.ts).
 */
export async function startServer(
  env: Record<string, string> = {},
  door: 'server' | 'next' = 'server',
  options: { healthyWithinMs?: number } = {},
): Promise<RunningServer> {
  const port = await freePort();
  // On PostgreSQL every server gets a schema of its own (dropped when it stops), so rate limits and
  // data of one server never leak into another's answers.
  const ownSchema = !env.DATABASE_URL && process.env.DATABASE_URL ? `e2e_${randomBytes(6).toString('hex')}` : null;
  if (ownSchema) {
    const url = new URL(process.env.DATABASE_URL!);
    url.searchParams.set('schema', ownSchema);
    env = { ...env, DATABASE_URL: url.toString() };
  }
  let out = '';
  let err = '';
  const args =
    door === 'server'
      ? ['--import', 'tsx', 'server.ts']
      : ['node_modules/next/dist/bin/next', 'start', '--port', String(port), '--hostname', '127.0.0.1'];
  const child = spawn(process.execPath, args, {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'vouchsafe-e2e-')),
      ALLOW_PRIVATE_URLS: 'true',
      // A fresh endorser endorses at once in the e2e flows.
      ENDORSER_MIN_AGE_HOURS: '0',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (err += chunk));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.healthyWithinMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${err}`);
    try {
      if ((await fetch(`${url}/api/v1/health`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not become healthy: ${err}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    child,
    stdout: () => out,
    stderr: () => err,
    exit,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const code = await exit;
      if (ownSchema) await dropSchema(ownSchema);
      return code;
    },
  };
}

async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: parsePostgresUrl(process.env.DATABASE_URL!).connectionString });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
