import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createPublicClient,
  createWalletClient,
  erc20Abi,
  http,
  parseEther,
  type Address,
  type Hex,
  type PublicClient,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startAnvil, type Anvil } from '../server/chain/devnet/anvil';
import { ANVIL_KEYS, DEPLOYER_KEY, deployFixtures, type DevnetDeployment } from '../server/chain/devnet/deploy';
import { useChain } from '../server/chain/client';
import { devnetChain } from '../server/chain/viem-chain';
import { startTestApp, type TestApp } from './harness';

// A real EVM for integration tests: one anvil per test file, loaded from the devnet state that the
// first chain test of a run (or an earlier run) deployed and cached in the temp directory, so a
// test file pays ~0.3 s rather than a deployment. Call snapshot() before and revert() after each
// test (useTestChain does both) to keep tests independent.

export interface TestChain {
  rpcUrl: string;
  deployment: DevnetDeployment;
  client: PublicClient;
  anvil: Anvil;
  /** The deployer (owner of the platform token and of every sample token). */
  deployer: WalletClient;
  wallet(key: Hex): WalletClient;
  /** Platform tokens (whole tokens, 18 decimals) from the deployer to `to`; returns the tx hash. */
  giveTokens(to: Address, wholeTokens: bigint, token?: Address): Promise<Hex>;
  /** Raw ERC-20 transfer signed by `key`; mined at once (automine). */
  transfer(key: Hex, token: Address, to: Address, amount: bigint): Promise<Hex>;
  setEth(address: Address, wei: bigint): Promise<void>;
  mine(blocks?: number): Promise<void>;
  snapshot(): Promise<void>;
  revert(): Promise<void>;
  stop(): Promise<void>;
}

export const TOKEN_UNIT = 10n ** 18n;

function fixturesHash(): string {
  const hash = createHash('sha256');
  const dir = path.resolve('contracts', 'artifacts');
  for (const file of readdirSync(dir).sort()) hash.update(file).update(readFileSync(path.join(dir, file)));
  for (const file of ['deploy.ts', 'deployer.ts']) hash.update(readFileSync(path.resolve('server', 'chain', 'devnet', file)));
  return hash.digest('hex').slice(0, 16);
}

interface CachedState {
  state: Hex;
  deployment: DevnetDeployment;
}

async function rpc<T>(client: PublicClient, method: string, params: unknown[] = []): Promise<T> {
  return (await client.request({ method: method as never, params: params as never })) as T;
}

export async function startTestChain(): Promise<TestChain> {
  const cacheFile = path.join(tmpdir(), `vouchsafe-devnet-${fixturesHash()}.json`);
  const anvil = await startAnvil({ chainId: 8453 });
  const chain = devnetChain(8453, anvil.rpcUrl);
  const client = createPublicClient({ chain, transport: http(anvil.rpcUrl), pollingInterval: 20 }) as PublicClient;
  let deployment: DevnetDeployment;
  if (existsSync(cacheFile)) {
    const cached = JSON.parse(readFileSync(cacheFile, 'utf8')) as CachedState;
    await rpc(client, 'anvil_loadState', [cached.state]);
    deployment = cached.deployment;
  } else {
    deployment = await deployFixtures(client, anvil.rpcUrl);
    const state = await rpc<Hex>(client, 'anvil_dumpState');
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify({ state, deployment } satisfies CachedState));
    renameSync(temporary, cacheFile);
  }
  const wallet = (key: Hex) => createWalletClient({ account: privateKeyToAccount(key), chain, transport: http(anvil.rpcUrl) });
  const deployer = wallet(DEPLOYER_KEY);
  const snapshots: Hex[] = [];

  const transfer = async (key: Hex, token: Address, to: Address, amount: bigint) => {
    const hash = await wallet(key).writeContract({
      address: token,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [to, amount],
      chain,
      account: privateKeyToAccount(key),
      gas: 200_000n,
    });
    await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    return hash;
  };

  return {
    rpcUrl: anvil.rpcUrl,
    deployment,
    client,
    anvil,
    deployer,
    wallet,
    giveTokens: (to, wholeTokens, token = deployment.platformToken) =>
      transfer(DEPLOYER_KEY, token, to, wholeTokens * TOKEN_UNIT),
    transfer,
    async setEth(address, wei) {
      await rpc(client, 'anvil_setBalance', [address, `0x${wei.toString(16)}`]);
    },
    async mine(blocks = 1) {
      await rpc(client, 'anvil_mine', [`0x${blocks.toString(16)}`]);
    },
    async snapshot() {
      snapshots.push(await rpc<Hex>(client, 'evm_snapshot'));
    },
    async revert() {
      const id = snapshots.pop();
      if (id) await rpc(client, 'evm_revert', [id]);
    },
    stop: () => anvil.stop(),
  };
}

/** Test keys that hold ETH on the devnet (anvil's accounts 2-9; 0 deploys, 1 is the treasury). */
export const TEST_KEYS: Hex[] = ANVIL_KEYS.slice(2);
export const ONE_ETH = parseEther('1');

export interface RpcRecorder {
  url: string;
  /** JSON-RPC methods seen, in order. */
  methods: string[];
  /** HTTP requests seen (a JSON-RPC batch is one request carrying several methods). */
  requests: number;
  /** While true, every request fails with HTTP 503 (a node that is down). */
  down: boolean;
  /** Answers this much later (a slow node). */
  delayMs: number;
  close(): Promise<void>;
}

/**
 * A JSON-RPC proxy in front of the test chain that records the methods called and can play a
 * node that is down. Point an app at it with useChain(app.runtime, recorder.url, chain.deployment).
 */
export async function rpcRecorder(target: string): Promise<RpcRecorder> {
  const { createServer } = await import('node:http');
  const recorder: RpcRecorder = { url: '', methods: [], requests: 0, down: false, delayMs: 0, close: async () => {} };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      recorder.requests++;
      try {
        const parsed = JSON.parse(body) as { method: string } | { method: string }[];
        for (const call of Array.isArray(parsed) ? parsed : [parsed]) recorder.methods.push(call.method);
      } catch {
        /* not JSON */
      }
      if (recorder.down) {
        response.writeHead(503).end('node down');
        return;
      }
      const forward = () =>
        fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(
          async (upstream) =>
            response.writeHead(upstream.status, { 'content-type': 'application/json' }).end(await upstream.text()),
          () => response.writeHead(502).end(),
        );
      const delay = recorder.delayMs;
      if (delay > 0) setTimeout(() => void forward(), delay);
      else void forward();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  recorder.url = `http://127.0.0.1:${address.port}`;
  recorder.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return recorder;
}

export interface UseTestChainOptions {
  /**
   * Start an app on the chain with this env (a function may first deploy what the env names);
   * omitted: no app.
   */
  app?: Record<string, string> | ((chain: TestChain) => Record<string, string> | Promise<Record<string, string>>);
  /** Point the app at the chain through an rpcRecorder (reachable as `recorder`). */
  recorder?: boolean;
  /** Snapshot the chain before each test and revert after it (default true). */
  snapshots?: boolean;
}

export interface ChainTestContext {
  chain: TestChain;
  app: TestApp;
  recorder: RpcRecorder;
}

/** A stand-in for a value that a beforeAll hook creates: reading it earlier throws. */
function late<T extends object>(name: string): { proxy: T; set(value: T | undefined): void; get(): T | undefined } {
  let current: T | undefined;
  const target = (): T => {
    if (!current) throw new Error(`${name} is used before useTestChain started it (use it inside a hook or test)`);
    return current;
  };
  const proxy = new Proxy({} as T, {
    get(_, key) {
      const value = Reflect.get(target(), key) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current) : value;
    },
    has: (_, key) => Reflect.has(target(), key),
    set: (_, key, value) => Reflect.set(target(), key, value),
  });
  return { proxy, set: (value) => (current = value), get: () => current };
}

/**
 * The chain test setup in one call, at the top of a file or a describe: starts a test chain (and,
 * with `app`, an app on it; with `recorder`, behind an rpcRecorder) before all tests, stops them
 * after, and keeps tests independent with a snapshot before and a revert after each. The returned
 * chain, app and recorder can be used inside hooks and tests. Hooks a file adds after this call run
 * after the snapshot, and their afterEach before the revert.
 */
export function useTestChain(options: UseTestChainOptions = {}): ChainTestContext {
  const chain = late<TestChain>('chain');
  const app = late<TestApp>('app');
  const recorder = late<RpcRecorder>('recorder');
  beforeAll(async () => {
    const started = await startTestChain();
    chain.set(started);
    if (options.app === undefined) return;
    const env = typeof options.app === 'function' ? await options.app(started) : options.app;
    const running = await startTestApp(env, { chain: started });
    app.set(running);
    if (options.recorder) {
      const proxy = await rpcRecorder(started.rpcUrl);
      recorder.set(proxy);
      useChain(running.runtime, proxy.url, started.deployment);
    }
  }, 60_000);
  afterAll(async () => {
    await app.get()?.close();
    await recorder.get()?.close();
    await chain.get()?.stop();
  });
  if (options.snapshots !== false) {
    beforeEach(() => chain.proxy.snapshot());
    afterEach(() => chain.proxy.revert());
  }
  return { chain: chain.proxy, app: app.proxy, recorder: recorder.proxy };
}
