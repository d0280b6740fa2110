import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseRateLimit } from './config';

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'vouchsafe-config-'));

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config).toMatchObject({
      PORT: 3000,
      CHAIN_ID: 8453,
      SERVICE_NETWORK: 'mainnet',
      ALLOW_PRIVATE_URLS: false,
      ADMIN_WALLETS: [],
      INVOKE_TIMEOUT_MS: 30000,
      PUBLIC_BASE_URL: 'http://localhost:3000',
    });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'http://x'],
    ['CHAIN_ID', '0'],
    ['TREASURY_ADDRESS', '0x123'],
    // a mixed-case address whose EIP-55 checksum is wrong (last letter's case flipped)
    ['PLATFORM_TOKEN_ADDRESS', '0x5FbDB2315678afecb367f032d93F642f64180aA3'],
    ['SWAP_ROUTER_ALLOWLIST', '0x2626664c2603336E57B271c5C0b26F421741e481,0x123'],
    ['CHAIN_RPC_URL', 'localhost:8545'],
    ['DEPOSIT_CONFIRMATIONS', '-1'],
    ['ADMIN_WALLETS', '0x0000000000000000000000000000000000000001,nope'],
    ['SERVICE_NETWORK', 'devnet'],
    ['ALLOW_PRIVATE_URLS', 'yes'],
    ['INVOKE_TIMEOUT_MS', '-5'],
    ['PUBLIC_BASE_URL', 'localhost:3000'],
    ['AUTH_SECRET', 'short'],
    ['RATE_LIMIT_BOOTSTRAP', 'three per day'],
  ])('stops on a bad %s with a one-line message naming it', (name, value) => {
    let error: unknown;
    try {
      loadConfig({ DATA_DIR: dataDir(), [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(name);
    expect((error as Error).message).not.toContain('\n');
  });

  it('normalises addresses and lists', () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      ADMIN_WALLETS: '0x00000000000000000000000000000000000000aa, 0x00000000000000000000000000000000000000BB',
      PUBLIC_BASE_URL: 'https://vouchsafe.example/',
    });
    expect(config.ADMIN_WALLETS).toEqual([
      getAddress('0x00000000000000000000000000000000000000aa'),
      getAddress('0x00000000000000000000000000000000000000bb'),
    ]);
    expect(config.PUBLIC_BASE_URL).toBe('https://vouchsafe.example');
  });

  it('generates AUTH_SECRET and CRON_SECRET once into DATA_DIR', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(first.AUTH_SECRET).toHaveLength(64);
    expect(second.AUTH_SECRET).toBe(first.AUTH_SECRET);
    expect(second.CRON_SECRET).toBe(first.CRON_SECRET);
    expect(JSON.parse(readFileSync(path.join(dir, 'secrets.json'), 'utf8')).AUTH_SECRET).toBe(first.AUTH_SECRET);
    expect(loadConfig({ DATA_DIR: dir, AUTH_SECRET: 'x'.repeat(32) }).AUTH_SECRET).toBe('x'.repeat(32));
  });

  it('reads RATE_LIMIT_<NAME> overrides', () => {
    const config = loadConfig({ DATA_DIR: dataDir(), RATE_LIMIT_BOOTSTRAP: '10/1h', RATE_LIMIT_AUTH: '5/30s' });
    expect(config.rateLimits.bootstrap).toEqual({ limit: 10, windowMs: 3_600_000 });
    expect(config.rateLimits.auth).toEqual({ limit: 5, windowMs: 30_000 });
  });
});

describe('parseRateLimit', () => {
  it('parses count/window and refuses nonsense', () => {
    expect(parseRateLimit('3/24h')).toEqual({ limit: 3, windowMs: 86_400_000 });
    expect(parseRateLimit('1/1d')).toEqual({ limit: 1, windowMs: 86_400_000 });
    expect(parseRateLimit('0/1m')).toBeNull();
    expect(parseRateLimit('5/0s')).toBeNull();
    expect(parseRateLimit('5 per minute')).toBeNull();
  });
});
