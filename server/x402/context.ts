import { x402Facilitator } from '@x402/core/facilitator';
import { HTTPFacilitatorClient } from '@x402/core/http';
import { x402ResourceServer, type FacilitatorClient } from '@x402/core/server';
import type { Network } from '@x402/core/types';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { ExactEvmScheme as ExactEvmFacilitatorScheme } from '@x402/evm/exact/facilitator';
import { ExactEvmScheme as ExactEvmServerScheme } from '@x402/evm/exact/server';
import { paymentIdentifierResourceServerExtension } from '@x402/extensions/payment-identifier';
import {
  createWalletClient,
  getAddress,
  http,
  nonceManager,
  parseAbi,
  parseUnits,
  publicActions,
  type Address,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { chain, chainEnabled, type ChainContext } from '../chain/client';
import { TREASURY_KEY } from '../chain/devnet/deploy';
import { devnetChain } from '../chain/viem-chain';
import { log } from '../core/log';
import { currentRuntime } from '../core/runtime';
import { sharedState } from '../core/shared-state';

// x402 (protocol v2, docs/payments.md): the resource server of @x402/core with the `exact` EVM scheme of
// @x402/evm (EIP-3009 transferWithAuthorization), verified and settled by a facilitator running in this
// process (@x402/core's x402Facilitator with @x402/evm's exact facilitator scheme, signing with
// X402_FACILITATOR_PRIVATE_KEY on the configured chain), or by X402_FACILITATOR_URL when set.

/** USDC on Base mainnet: the asset payments settle in when CHAIN_RPC_URL is set (https://developers.circle.com/stablecoins/usdc-contract-addresses). */
export const BASE_USDC = getAddress('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913');
export const USDC_UNITS = 6;

export interface X402Context {
  server: x402ResourceServer;
  network: Network;
  asset: Address;
  payTo: Address;
  /** The token's EIP-712 domain (read from the token: USDC's is "USD Coin", "2"). */
  domain: { name: string; version: string };
  chain: ChainContext;
  facilitator: 'local' | 'hosted';
  /** micro-CLAW that one whole USDC buys. */
  microClawPerUsdc: bigint;
  analyzePrice: bigint;
  topupMax: bigint;
}

interface Slot {
  ready: Promise<X402Context | null> | null;
  /** Settlements from the local facilitator's one account go one at a time (nonces). */
  queue: Promise<unknown>;
}

const slot = sharedState<Slot>('x402', () => ({ ready: null, queue: Promise.resolve() }));

const tokenAbi = parseAbi([
  'function name() view returns (string)',
  'function version() view returns (string)',
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
]);

/** A FacilitatorClient over the in-process facilitator (the package's x402Facilitator answers synchronously for getSupported). */
function localFacilitator(context: ChainContext, key: Hex, network: Network): FacilitatorClient {
  const account = privateKeyToAccount(key, { nonceManager });
  const wallet = createWalletClient({
    account,
    chain: devnetChain(context.chainId, context.rpcUrl),
    transport: http(context.rpcUrl, { timeout: 30_000 }),
    pollingInterval: context.source === 'devnet' ? 50 : 1_000,
  }).extend(publicActions);
  const signer = toFacilitatorEvmSigner({
    address: account.address,
    readContract: (args) => wallet.readContract(args as never),
    verifyTypedData: (args) => wallet.verifyTypedData(args as never),
    writeContract: (args) => wallet.writeContract(args as never),
    sendTransaction: (args) => wallet.sendTransaction(args as never),
    waitForTransactionReceipt: (args) => wallet.waitForTransactionReceipt(args),
    getCode: (args) => wallet.getCode(args),
  });
  const facilitator = new x402Facilitator().register(network, new ExactEvmFacilitatorScheme(signer));
  const queue = slot();
  return {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => {
      const run = queue.queue.then(() => facilitator.settle(payload, requirements));
      queue.queue = run.catch(() => undefined);
      return run;
    },
    getSupported: () => Promise.resolve(facilitator.getSupported() as Awaited<ReturnType<FacilitatorClient['getSupported']>>),
  };
}

async function open(): Promise<X402Context | null> {
  if (!chainEnabled()) return null;
  const { config } = currentRuntime();
  const context = await chain();
  const asset =
    config.X402_ASSET_ADDRESS ??
    (context.source === 'devnet' ? (context.devnet?.usdc ?? null) : config.CHAIN_ID === 8453 ? BASE_USDC : null);
  const payTo = config.X402_PAY_TO ?? context.addresses.treasury;
  const key = config.X402_FACILITATOR_PRIVATE_KEY ?? (context.source === 'devnet' ? TREASURY_KEY : undefined);
  if (!asset || !payTo || (!key && !config.X402_FACILITATOR_URL)) {
    log.warn(
      { asset, payTo, facilitator: Boolean(key || config.X402_FACILITATOR_URL) },
      'x402 payments are off (not configured)',
    );
    return null;
  }
  const network = `eip155:${context.chainId}` as Network;
  const [name, version] = await Promise.all([
    context.client.readContract({ address: asset, abi: tokenAbi, functionName: 'name' }),
    context.client.readContract({ address: asset, abi: tokenAbi, functionName: 'version' }),
  ]);
  const facilitatorClient = config.X402_FACILITATOR_URL
    ? new HTTPFacilitatorClient({ url: config.X402_FACILITATOR_URL })
    : localFacilitator(context, key as Hex, network);
  const server = new x402ResourceServer(facilitatorClient)
    .register(network, new ExactEvmServerScheme())
    .registerExtension(paymentIdentifierResourceServerExtension);
  await server.initialize();
  return {
    server,
    network,
    asset,
    payTo,
    domain: { name, version },
    chain: context,
    facilitator: config.X402_FACILITATOR_URL ? 'hosted' : 'local',
    microClawPerUsdc: parseUnits(config.X402_CLAW_PER_USDC, 6),
    analyzePrice: parseUnits(config.X402_ANALYZE_PRICE_USDC, USDC_UNITS),
    topupMax: parseUnits(config.X402_TOPUP_MAX_USDC, USDC_UNITS),
  };
}

/** The runtime's x402 setup, opened on first use; null when payments are off (no chain, no asset or no facilitator). */
export function x402Context(): Promise<X402Context | null> {
  const state = slot();
  state.ready ??= open().catch((error: unknown) => {
    // Not kept: the next request tries again (a node that was down may be back).
    state.ready = null;
    log.error({ err: (error as Error).message }, 'x402 could not be set up');
    return null;
  });
  return state.ready;
}

/** Whether the EIP-3009 authorization's nonce was used (or cancelled) on the chain. */
export async function authorizationUsed(context: X402Context, payer: Address, nonce: Hex): Promise<boolean> {
  return context.chain.client.readContract({
    address: context.asset,
    abi: tokenAbi,
    functionName: 'authorizationState',
    args: [payer, nonce],
  });
}

/** micro-CLAW bought by `atomic` USDC units (floored). */
export const clawForUsdc = (context: X402Context, atomic: bigint): bigint => (atomic * context.microClawPerUsdc) / 10n ** 6n;

/** USDC units that buy at least `microClaw` (rounded up). */
export const usdcForClaw = (context: X402Context, microClaw: bigint): bigint =>
  (microClaw * 10n ** 6n + context.microClawPerUsdc - 1n) / context.microClawPerUsdc;
