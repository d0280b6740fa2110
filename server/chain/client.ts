import { readFileSync } from 'node:fs';
import { createPublicClient, http, webSocket, type PublicClient } from 'viem';
import { ApiError } from '../core/errors';
import { log } from '../core/log';
import { currentRuntime, type Runtime } from '../core/runtime';
import { sharedState } from '../core/shared-state';
import { resolveAddresses, type ChainAddresses } from './addresses';
import { devnetFiles, startDevnet, type Devnet } from './devnet/start-devnet';
import type { DevnetDeployment } from './devnet/deploy';
import { devnetChain } from './viem-chain';

// The one chain client of a runtime: a viem public client over CHAIN_RPC_URL, or over the bundled
// devnet when no node is configured (started on first use, or at server start).

export interface ChainContext {
  source: 'configured' | 'devnet';
  rpcUrl: string;
  chainId: number;
  client: PublicClient;
  addresses: ChainAddresses;
  /** The devnet's full deployment (sample tokens, Safe, ...) when running on the bundled devnet. */
  devnet: DevnetDeployment | null;
  /** Blocks a deposit needs before it is credited. */
  depositConfirmations: number;
}

interface ChainSlot {
  /** False when this runtime runs without a chain (tests that do not touch it). */
  enabled: boolean;
  context: Promise<ChainContext> | null;
  devnet: Devnet | null;
  /** The last start failure, for the health check. */
  error: string | null;
}

const slot = sharedState<ChainSlot>('chain', () => ({ enabled: true, context: null, devnet: null, error: null }));

/**
 * The platform's own fetch for JSON-RPC: in `npm start` Next.js replaces the global fetch with one that opens a
 * tracing span per call (and keeps the original as `_nextOriginalFetch`); an RPC call needs none of it (at sign-in,
 * which reads the chain every time, that wrapper was 4% of the server's CPU).
 */
export const rpcFetch: typeof fetch = (input, init) =>
  ((globalThis.fetch as typeof fetch & { _nextOriginalFetch?: typeof fetch })._nextOriginalFetch ?? globalThis.fetch)(
    input,
    init,
  );

function makeClient(rpcUrl: string, chainId: number): PublicClient {
  const transport = rpcUrl.startsWith('ws')
    ? webSocket(rpcUrl)
    : http(rpcUrl, {
        timeout: RPC_TIMEOUT_MS,
        retryCount: 1,
        retryDelay: 100,
        batch: { batchSize: 32, wait: 0 },
        fetchFn: rpcFetch,
      });
  return createPublicClient({ chain: devnetChain(chainId, rpcUrl), transport, pollingInterval: 250 }) as PublicClient;
}

function contextFor(
  runtime: Runtime,
  rpcUrl: string,
  source: ChainContext['source'],
  devnet: DevnetDeployment | null,
): ChainContext {
  const { config } = runtime;
  return {
    source,
    rpcUrl,
    chainId: config.CHAIN_ID,
    client: makeClient(rpcUrl, config.CHAIN_ID),
    addresses: resolveAddresses(config, devnet ?? undefined),
    devnet,
    depositConfirmations: config.DEPOSIT_CONFIRMATIONS ?? (source === 'devnet' ? 0 : 2),
  };
}

async function openChain(runtime: Runtime): Promise<ChainContext> {
  const { config } = runtime;
  if (config.CHAIN_RPC_URL) {
    const context = contextFor(runtime, config.CHAIN_RPC_URL, 'configured', null);
    const chainId = await context.client.getChainId();
    if (chainId !== config.CHAIN_ID)
      throw new Error(`the node at CHAIN_RPC_URL is chain ${chainId}, CHAIN_ID is ${config.CHAIN_ID}`);
    return context;
  }
  if (config.CHAIN_ID !== 8453) throw new Error('the bundled devnet runs chain id 8453; set CHAIN_RPC_URL for another CHAIN_ID');
  // A worker under WEB_CONCURRENCY (server.ts): the primary started the one bundled devnet and
  // saved its deployment; the worker uses both instead of starting an anvil of its own.
  const shared = config.SHARED_DEVNET_RPC_URL;
  if (shared) {
    const deployment = JSON.parse(readFileSync(devnetFiles(config.DATA_DIR).addressesFile, 'utf8')) as DevnetDeployment;
    return contextFor(runtime, shared, 'devnet', deployment);
  }
  const state = slot();
  const devnet = await startDevnet(config.DATA_DIR);
  state.devnet = devnet;
  runtime.onClose(() => devnet.stop());
  log.info(
    { rpc: devnet.rpcUrl, deployed: devnet.deployed, platformToken: devnet.deployment.platformToken },
    devnet.deployed ? 'devnet started; fixtures deployed' : 'devnet started from saved state',
  );
  return contextFor(runtime, devnet.rpcUrl, 'devnet', devnet.deployment);
}

/** The runtime's chain, opened (and the devnet started) on first use. 503 when there is none. */
export function chain(): Promise<ChainContext> {
  const runtime = currentRuntime();
  const state = slot();
  if (!state.enabled) return Promise.reject(new ApiError('chain_unavailable', 'No chain is configured for this instance'));
  state.context ??= openChain(runtime).then(
    (context) => {
      state.error = null;
      return context;
    },
    (error: Error) => {
      state.context = null;
      state.error = error.message;
      log.error({ err: error.message }, 'the chain could not be opened');
      throw new ApiError('chain_unavailable', 'The chain is unavailable: the devnet or node could not be started', {
        reason: error.message.split('\n')[0],
      });
    },
  );
  return state.context;
}

/** The chain when this runtime has one; null when it runs without (never starts anything new for a disabled runtime). */
export async function chainIfEnabled(): Promise<ChainContext | null> {
  return slot().enabled ? chain() : null;
}

export function chainEnabled(): boolean {
  return slot().enabled;
}

/** The last failure to open the chain, if the latest attempt failed. */
export function chainOpenError(): string | null {
  return slot().error;
}

/** Runs this runtime without a chain: chain() answers 503, tiers keep their stored value (tests). */
export function disableChain(runtime: Runtime): void {
  runtime.state.set('chain', { enabled: false, context: null, devnet: null, error: null } satisfies ChainSlot);
}

/** Points this runtime at an already running node with a known deployment (tests, npm run devnet). */
export function useChain(runtime: Runtime, rpcUrl: string, deployment: DevnetDeployment | null): ChainContext {
  const context = contextFor(runtime, rpcUrl, deployment ? 'devnet' : 'configured', deployment);
  runtime.state.set('chain', { enabled: true, context: Promise.resolve(context), devnet: null, error: null } satisfies ChainSlot);
  return context;
}

const failures = sharedState('chain.rpc-failures', () => ({ times: [] as number[], last: '' }));
/** RPC failures within this window make the health check's chain entry fail. */
export const RPC_FAILURE_WINDOW_MS = 15_000;

/** RPC failures in the last RPC_FAILURE_WINDOW_MS and the latest message (health). */
export function recentRpcFailures(now = Date.now()): { count: number; last: string } {
  const state = failures();
  state.times = state.times.filter((at) => now - at < RPC_FAILURE_WINDOW_MS);
  return { count: state.times.length, last: state.last };
}

/** Each JSON-RPC request gives up after this long (one retry for errors that are not timeouts). */
export const RPC_TIMEOUT_MS = 5_000;
/** What one API request may spend on the chain in all (analyzer, quote, deposit claim): then 504. */
export const CHAIN_DEADLINE_MS = 12_000;
/** Retry-After of a 503 for a node that is down. */
const RETRY_AFTER_S = 5;

/** How a chain failure is reported: the node is down (503), too slow (504), or answered an error (502). */
export type ChainFailure = 'unavailable' | 'timeout' | 'rpc_error';

const DOWN =
  /fetch failed|ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN|socket hang up|other side closed|SocketClosed|socket has been closed|WebSocket|connection (was )?closed|terminated/i;
const SLOW = /timed? ?out|timeout|took too long|ETIMEDOUT/i;

/** Classifies a chain failure, walking the error's causes (viem wraps the transport's error). */
export function classifyChainFailure(error: unknown): ChainFailure {
  const seen = new Set<unknown>();
  let kind: ChainFailure = 'rpc_error';
  for (let current = error; current && typeof current === 'object' && !seen.has(current);) {
    seen.add(current);
    const record = current as { name?: string; message?: string; status?: number; code?: unknown; cause?: unknown };
    if (record.name === 'TimeoutError' || SLOW.test(`${record.code ?? ''} ${record.message ?? ''}`)) return 'timeout';
    if (record.name === 'SocketClosedError' || DOWN.test(`${record.code ?? ''} ${record.message ?? ''}`)) kind = 'unavailable';
    // A proxy in front of the node that cannot reach it.
    if (record.name === 'HttpRequestError' && (record.status === 502 || record.status === 503)) kind = 'unavailable';
    if (record.name === 'HttpRequestError' && record.status === 504) return 'timeout';
    current = record.cause;
  }
  return kind;
}

/**
 * A chain RPC failure as the API reports it, counted for health (never a made-up value): 503
 * `chain_unavailable` with Retry-After when the node cannot be reached, 504 `chain_timeout` when it
 * answers too slowly, 502 `chain_error` when it answered with an error.
 */
export function rpcError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const message = (error as Error)?.message?.split('\n')[0] ?? String(error);
  const state = failures();
  state.times.push(Date.now());
  if (state.times.length > 1000) state.times.splice(0, state.times.length - 1000);
  state.last = message;
  const kind = classifyChainFailure(error);
  if (kind === 'unavailable') {
    return new ApiError(
      'chain_unavailable',
      `The chain node cannot be reached: ${message}`,
      { reason: 'node_unreachable' },
      { 'Retry-After': String(RETRY_AFTER_S) },
    );
  }
  if (kind === 'timeout') {
    return new ApiError('chain_timeout', `The chain node did not answer in time: ${message}`, { reason: 'timeout' });
  }
  return new ApiError('chain_error', `The chain node answered with an error: ${message}`, { reason: 'rpc_error' });
}

/**
 * The chain part of one API request runs under one deadline (CHAIN_DEADLINE_MS from its start): each
 * awaited chain step is raced against what is left, and past it the request answers 504 (the calls
 * still in flight finish or time out on their own; they write nothing).
 */
export function chainDeadline(ms = CHAIN_DEADLINE_MS): { run<T>(work: Promise<T>): Promise<T> } {
  const end = Date.now() + ms;
  return {
    async run<T>(work: Promise<T>): Promise<T> {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(rpcError(new Error(`no answer from the chain within ${ms} ms (timeout)`))),
          Math.max(0, end - Date.now()),
        );
      });
      work.catch(() => {});
      try {
        return await Promise.race([work, deadline]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** Runs `work` (the whole chain part of a request) under a fresh CHAIN_DEADLINE_MS. */
export function withChainDeadline<T>(work: Promise<T>, ms = CHAIN_DEADLINE_MS): Promise<T> {
  return chainDeadline(ms).run(work);
}
