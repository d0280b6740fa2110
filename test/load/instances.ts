// Shared by the multi-instance tests (test/instances.int.test.ts, test/rolling-deploy.int.test.ts):
// an event-stream reader, and the environment several `server.ts` instances share (one PostgreSQL
// schema, one Redis, one devnet). Their plain HTTP calls are load/http-client.ts's.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { devnetFiles } from '../../server/chain/devnet/start-devnet';
import { ensureProductionBuild } from '../../e2e/server-process';
import { startTestChain, type TestChain } from '../chain';
import { startTestApp, type TestApp } from '../harness';

export interface StreamReader {
  /** Ids of the `job.posted` events received, in order. */
  ids: string[];
  /** The `reconnect` events received (their data). */
  reconnects: { reason: string; last_event_id: string | null }[];
  /** Settles when the server ends the stream (or it is stopped). */
  done: Promise<void>;
  stop(): Promise<void>;
}

/** Reads an SSE stream of job.posted events, collecting event ids, until the server ends it or it is stopped. */
export function readStream(base: string, token: string, lastEventId?: string): StreamReader {
  const ids: string[] = [];
  const reconnects: StreamReader['reconnects'] = [];
  const controller = new AbortController();
  const done = (async () => {
    const response = await fetch(`${base}/api/v1/stream?events=job.posted`, {
      headers: { authorization: `Bearer ${token}`, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      signal: controller.signal,
    });
    if (response.status !== 200) throw new Error(`stream: HTTP ${response.status} ${await response.text()}`);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let id: string | null = null;
    let event: string | null = null;
    try {
      for (;;) {
        const { value, done: ended } = await reader.read();
        if (ended) break;
        buffer += decoder.decode(value, { stream: true });
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline).replace(/\r$/, '');
          buffer = buffer.slice(newline + 1);
          if (line.startsWith('id:')) id = line.slice(3).trim();
          else if (line.startsWith('event:')) {
            event = line.slice(6).trim();
            if (event === 'job.posted' && id) ids.push(id);
          } else if (line.startsWith('data:') && event === 'reconnect') reconnects.push(JSON.parse(line.slice(5)));
          else if (line === '') id = event = null;
        }
      }
    } catch (error) {
      if ((error as Error).name !== 'AbortError') throw error;
    }
  })().catch((error) => {
    if ((error as Error).name !== 'AbortError') throw error;
  });
  return { ids, reconnects, done, stop: async () => (controller.abort(), await done) };
}

export interface InstancesEnvironment {
  /** An in-process app on the instances' schema (funding, checking the database). */
  app: TestApp;
  chain: TestChain;
  /** The environment of every instance (give it to startServer). */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * What several `server.ts` instances share: the production build, one devnet (as server.ts's workers
 * share their primary's), one PostgreSQL schema (the in-process app's), one Redis key prefix.
 */
export async function startInstancesEnvironment(
  extra: Record<string, string> & { AUTH_SECRET: string },
): Promise<InstancesEnvironment> {
  ensureProductionBuild();
  const chain = await startTestChain();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vouchsafe-instances-'));
  const { addressesFile } = devnetFiles(dataDir);
  mkdirSync(path.dirname(addressesFile), { recursive: true });
  writeFileSync(addressesFile, JSON.stringify(chain.deployment));
  const app = await startTestApp({ AUTH_SECRET: extra.AUTH_SECRET });
  const url = new URL(process.env.DATABASE_URL!);
  url.searchParams.set('schema', app.database.kind === 'postgres' ? app.database.schema : '');
  const env = {
    DATABASE_URL: url.toString(),
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_KEY_PREFIX: `instances-${randomBytes(4).toString('hex')}:`,
    // http webhook and invoke URLs on loopback
    SERVICE_NETWORK: 'testnet',
    LOG_LEVEL: 'warn',
    WEB_CONCURRENCY: '1',
    DATA_DIR: dataDir,
    SHARED_DEVNET_RPC_URL: chain.rpcUrl,
    INVOKE_TIMEOUT_MS: '5000',
    ...extra,
  };
  return {
    app,
    chain,
    env,
    async close() {
      await app.close();
      await chain.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
