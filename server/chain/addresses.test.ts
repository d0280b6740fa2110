import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../core/config';
import { BASE_MAINNET, resolveAddresses } from './addresses';

const config = (env: Record<string, string> = {}) =>
  loadConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'vouchsafe-addr-')), ...env });

describe('resolveAddresses', () => {
  it('defaults to the Base mainnet deployments; no platform token or treasury is invented', () => {
    const addresses = resolveAddresses(config({ CHAIN_RPC_URL: 'https://mainnet.base.org' }));
    expect(addresses).toMatchObject({
      platformToken: null,
      treasury: null,
      acceptedDepositTokens: [],
      weth: '0x4200000000000000000000000000000000000006',
      uniswapV2Factory: '0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6',
      uniswapV2Router: getAddress('0x4752ba5dbc23f44d87826276bf6fd6b1c372ad24'),
      uniswapV3Factory: '0x33128a8fC17869897dcE68Ed026d694621f6FDfD',
      uniswapV3Quoter: '0x3d4e44Eb1374240CE5F1B871ab261CD16335B76a',
      swapRouterAllowlist: [BASE_MAINNET.swapRouter02, BASE_MAINNET.uniswapV2Router],
      liquidityLockers: [],
    });
  });

  it('uses exactly the configured variables', () => {
    const token = '0x00000000000000000000000000000000000000aa';
    const other = '0x00000000000000000000000000000000000000bb';
    const addresses = resolveAddresses(
      config({
        PLATFORM_TOKEN_ADDRESS: token,
        TREASURY_ADDRESS: other,
        ACCEPTED_DEPOSIT_TOKENS: `${token},${other}`,
        UNISWAP_V2_ROUTER: other,
        SWAP_ROUTER_ALLOWLIST: token,
      }),
    );
    expect(addresses.platformToken).toBe(getAddress(token));
    expect(addresses.treasury).toBe(getAddress(other));
    expect(addresses.acceptedDepositTokens).toEqual([getAddress(token), getAddress(other)]);
    expect(addresses.uniswapV2Router).toBe(getAddress(other));
    expect(addresses.swapRouterAllowlist).toEqual([getAddress(token)]);
  });

  it('accepted deposit tokens default to the platform token', () => {
    const token = '0x00000000000000000000000000000000000000aa';
    expect(resolveAddresses(config({ PLATFORM_TOKEN_ADDRESS: token })).acceptedDepositTokens).toEqual([getAddress(token)]);
  });
});
