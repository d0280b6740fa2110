import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createApi, nodeListener } from '../server/api/app';
import { checkResponse } from './contract';
import { createPgliteInstance, openDatabase, parsePostgresUrl, type Database } from '../server/core/db/open';
import { startRuntime, type Runtime } from '../server/core/runtime';
import { disableChain, useChain } from '../server/chain/client';
import type { TestChain } from './chain';

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as-is instead of JSON-encoding body. */
  raw?: string;
  headers?: Record<string, string>;
  token?: string;
  /** Validate the response against the OpenAPI document (default true; see contract.ts). */
  contract?: boolean;
}

export interface TestApp {
  runtime: Runtime;
  database: Database;
  fetch(request: Request): Promise<Response>;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  get<T = any>(path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  post<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<TestResponse<T>>;
  /** Starts the API on a real HTTP server on a free loopback port; returns its base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

async function freshDatabase(): Promise<{ database: Database; cleanup: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (url) {
    // A fresh schema per test file on the real server.
    const schema = `t_${inject('runId')}_${randomBytes(4).toString('hex')}`;
    const withSchema = new URL(url);
    withSchema.searchParams.set('schema', schema);
    const database = await openDatabase({ DATABASE_URL: withSchema.toString(), DATA_DIR: '' });
    return {
      database,
      cleanup: async () => {
        const client = new pg.Client({ connectionString: parsePostgresUrl(url).connectionString });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      },
    };
  }
  const template = readFileSync(inject('pgliteTemplate'));
  const pglite = await createPgliteInstance({ loadDataDir: new Blob([template]) });
  const database = await openDatabase({ DATA_DIR: '' }, { pglite });
  return { database, cleanup: async () => {} };
}

export interface TestAppOptions {
  /**
   * A test chain (test/chain.ts) to use as the devnet. Without one (and without CHAIN_RPC_URL in
   * env) the app runs with no chain: tiers keep their stored value, chain endpoints answer 503.
   */
  chain?: TestChain;
  /** An already-open database instead of a fresh schema (it is closed with the app). */
  database?: Database;
}

/** A running API on a fresh database. Pass env to override configuration. */
export async function startTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vouchsafe-data-'));
  const { database, cleanup } = options.database
    ? { database: options.database, cleanup: async () => {} }
    : await freshDatabase();
  const runtime = await startRuntime({
    env: { DATA_DIR: dataDir, ALLOW_PRIVATE_URLS: 'true', LOG_LEVEL: 'silent', ...env },
    database,
  });
  if (options.chain) useChain(runtime, options.chain.rpcUrl, options.chain.deployment);
  else if (!env.CHAIN_RPC_URL) disableChain(runtime);
  const api = createApi();
  const servers: Server[] = [];

  const fetch = (request: Request) => Promise.resolve(api.fetch(request));
  const listen = async () => {
    // server.ts's REST door: declared JSON endpoints answered from node's request, the rest through Hono.
    const server = createServer(nodeListener(api));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    return `http://127.0.0.1:${address.port}`;
  };
  const request = async <T>(method: string, urlPath: string, options: RequestOptions = {}): Promise<TestResponse<T>> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined = options.raw;
    if (body === undefined && options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(new Request(`http://vouchsafe.test${urlPath}`, { method, headers, body }));
    // An event stream never ends: answer with its status and headers and close it (stream tests read
    // streams through fetch or EventSource themselves).
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      await response.body?.cancel();
      return { status: response.status, headers: response.headers, body: null as T, text: '' };
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: keep the text */
    }
    if (method !== 'OPTIONS' && method !== 'HEAD' && options.contract !== false) {
      checkResponse(method, urlPath, response.status, response.headers.get('content-type'), parsed);
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  };

  return {
    runtime,
    database,
    fetch,
    request,
    get: (urlPath, options) => request('GET', urlPath, options),
    post: (urlPath, body, options) => request('POST', urlPath, { ...options, body }),
    listen,
    async close() {
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
      try {
        await runtime.close();
      } finally {
        await cleanup();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}
