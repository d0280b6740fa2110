import { getAddress, type Address } from 'viem';
import type { Config } from '../core/config';

// The chain addresses the service uses (ARCHITECTURE.md, Chain). With CHAIN_RPC_URL set, each comes
// from its variable or, unset, from Base mainnet's deployment; on the bundled devnet from devnet.json.

export interface ChainAddresses {
  platformToken: Address | null;
  treasury: Address | null;
  acceptedDepositTokens: Address[];
  weth: Address;
  uniswapV2Factory: Address;
  uniswapV2Router: Address;
  uniswapV3Factory: Address;
  uniswapV3Quoter: Address;
  swapRouterAllowlist: Address[];
  liquidityLockers: Address[];
  /** ERC-8004 registries (docs/erc8004.md); validation has no Base default. */
  erc8004IdentityRegistry: Address;
  erc8004ReputationRegistry: Address;
  erc8004ValidationRegistry: Address | null;
}

/**
 * Base mainnet (chain 8453) deployments, the defaults when CHAIN_RPC_URL is set and a variable is not.
 * Sources: WETH is the OP-stack predeploy (docs.base.org/chain/contracts); Uniswap V2 factory and
 * router from docs.uniswap.org/contracts/v2/reference/smart-contracts/v2-deployments (row "Base");
 * V3 factory, QuoterV2 and SwapRouter02 from docs.uniswap.org/contracts/v3/reference/deployments/
 * base-deployments (the same figures as docs.base.org/chain/contracts). Checked 2026-11-23.
 * There is no platform token or treasury default: those must be configured.
 */
export const BASE_MAINNET = {
  weth: getAddress('0x4200000000000000000000000000000000000006'),
  uniswapV2Factory: getAddress('0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6'),
  uniswapV2Router: getAddress('0x4752ba5dbc23f44d87826276bf6fd6b1c372ad24'),
  uniswapV3Factory: getAddress('0x33128a8fC17869897dcE68Ed026d694621f6FDfD'),
  uniswapV3Quoter: getAddress('0x3d4e44Eb1374240CE5F1B871ab261CD16335B76a'),
  swapRouter02: getAddress('0x2626664c2603336E57B271c5C0b26F421741e481'),
  // ERC-8004 (issue 24; github.com/erc-8004/erc-8004-contracts README, Base mainnet).
  erc8004IdentityRegistry: getAddress('0x8004A169FB4a3325136EB29fA0ceB6D2e539a432'),
  erc8004ReputationRegistry: getAddress('0x8004BAa17C55a88189AE136b182e5fdA19dE9b63'),
} as const;

/** What the devnet deployed (DATA_DIR/devnet.json carries these plus the sample tokens). */
export interface DevnetCoreAddresses {
  platformToken: Address;
  treasury: Address;
  weth: Address;
  uniswapV2Factory: Address;
  uniswapV2Router: Address;
  uniswapV3Factory: Address;
  uniswapV3Quoter: Address;
  swapRouter02: Address;
  liquidityLocker: Address;
  erc8004?: { identityRegistry: Address; reputationRegistry: Address; validationRegistry: Address };
}

/**
 * The addresses in use: configured variables win; the rest come from `base` (the devnet's
 * deployment, or Base mainnet's when a real node is configured).
 */
export function resolveAddresses(config: Config, base: Partial<DevnetCoreAddresses> = BASE_MAINNET): ChainAddresses {
  const defaults = { ...BASE_MAINNET, ...base };
  const platformToken = config.PLATFORM_TOKEN_ADDRESS ?? base.platformToken ?? null;
  const v2Router = config.UNISWAP_V2_ROUTER ?? defaults.uniswapV2Router;
  return {
    platformToken,
    treasury: config.TREASURY_ADDRESS ?? base.treasury ?? null,
    acceptedDepositTokens: config.ACCEPTED_DEPOSIT_TOKENS ?? (platformToken ? [platformToken] : []),
    weth: config.WETH_ADDRESS ?? defaults.weth,
    uniswapV2Factory: config.UNISWAP_V2_FACTORY ?? defaults.uniswapV2Factory,
    uniswapV2Router: v2Router,
    uniswapV3Factory: config.UNISWAP_V3_FACTORY ?? defaults.uniswapV3Factory,
    uniswapV3Quoter: config.UNISWAP_V3_QUOTER ?? defaults.uniswapV3Quoter,
    swapRouterAllowlist: config.SWAP_ROUTER_ALLOWLIST ?? [defaults.swapRouter02, v2Router],
    liquidityLockers: config.LIQUIDITY_LOCKERS ?? (base.liquidityLocker ? [base.liquidityLocker] : []),
    erc8004IdentityRegistry:
      config.ERC8004_IDENTITY_REGISTRY ?? base.erc8004?.identityRegistry ?? BASE_MAINNET.erc8004IdentityRegistry,
    erc8004ReputationRegistry:
      config.ERC8004_REPUTATION_REGISTRY ?? base.erc8004?.reputationRegistry ?? BASE_MAINNET.erc8004ReputationRegistry,
    erc8004ValidationRegistry: config.ERC8004_VALIDATION_REGISTRY ?? base.erc8004?.validationRegistry ?? null,
  };
}
