import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { getAddress, isAddress } from 'viem';
import { z } from 'zod';
import { RATE_LIMIT_POLICIES } from './rate-limit-policies';

// Every environment variable the service reads, validated in one place (ARCHITECTURE.md, Configuration).

const address = z
  .string()
  // Mixed case must be a valid EIP-55 checksum (a typo shows); all-lowercase is accepted.
  .refine((v) => isAddress(v, { strict: false }), 'must be a 0x-prefixed 20-byte address')
  .refine(
    (v) => v.slice(2) === v.slice(2).toLowerCase() || v.slice(2) === v.slice(2).toUpperCase() || isAddress(v),
    'has a wrong EIP-55 checksum (mixed case that does not match)',
  )
  .transform((v) => getAddress(v.toLowerCase()));
const addressList = z
  .string()
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .pipe(z.array(address));
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const int = (min: number, max: number) =>
  z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(z.number().int().min(min).max(max));
const url = (protocols: string[]) =>
  z.string().refine(
    (v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    `must be a ${protocols.join(' or ')} URL`,
  );

// A decimal amount with at most 6 decimals (USDC's precision), kept as text so no float touches money.
const usdcAmount = z.string().regex(/^\d{1,9}(\.\d{1,6})?$/, 'must be a decimal number with at most 6 decimals');
const privateKey = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex private key');

const schema = z.object({
  PORT: int(0, 65535).default(3000),
  // Worker processes serving HTTP on PostgreSQL (server.ts); unset: one per core. PGlite: always one.
  WEB_CONCURRENCY: int(1, 256).optional(),
  DATA_DIR: z.string().min(1).default('./.data'),
  // SIGTERM: answer /api/v1/health/ready 503 (and keep serving) this long before closing the listener,
  // so a load balancer's health checks take the instance out first (docs/deploy.md, "Rolling a deploy").
  SHUTDOWN_DELAY_MS: int(0, 5000).default(0),
  DATABASE_URL: url(['postgresql:', 'postgres:']).optional(),
  // A streaming read replica of DATABASE_URL: public reads go to it (docs/deploy.md, "Read replicas").
  DATABASE_REPLICA_URL: url(['postgresql:', 'postgres:']).optional(),
  // A replica further behind the primary than this is not read (the primary answers instead).
  DATABASE_REPLICA_MAX_LAG_MS: int(0, 600_000).default(5000),
  REDIS_URL: url(['redis:', 'rediss:']).optional(),
  // Prepended to every Redis key, so deployments (or test runs) sharing one Redis never share counters.
  REDIS_KEY_PREFIX: z.string().max(100).default(''),
  CHAIN_RPC_URL: url(['http:', 'https:', 'ws:', 'wss:']).optional(),
  // Internal: set by server.ts's primary for its workers, the bundled devnet it started.
  SHARED_DEVNET_RPC_URL: url(['http:']).optional(),
  CHAIN_ID: int(1, 2 ** 32).default(8453),
  PLATFORM_TOKEN_ADDRESS: address.optional(),
  TREASURY_ADDRESS: address.optional(),
  ACCEPTED_DEPOSIT_TOKENS: addressList.optional(),
  WETH_ADDRESS: address.optional(),
  UNISWAP_V2_FACTORY: address.optional(),
  UNISWAP_V2_ROUTER: address.optional(),
  UNISWAP_V3_FACTORY: address.optional(),
  UNISWAP_V3_QUOTER: address.optional(),
  SWAP_ROUTER_ALLOWLIST: addressList.optional(),
  LIQUIDITY_LOCKERS: addressList.optional(),
  // ERC-8004 registries (docs/erc8004.md): devnet's, or Base mainnet's with CHAIN_RPC_URL set.
  ERC8004_IDENTITY_REGISTRY: address.optional(),
  ERC8004_REPUTATION_REGISTRY: address.optional(),
  ERC8004_VALIDATION_REGISTRY: address.optional(),
  TRADE_TOKEN_LIST: z.string().min(1).optional(),
  // Smart money and trade (docs/smart-money.md): the USD price source and the large-swap threshold.
  USD_STABLE_TOKEN: address.optional(),
  ETH_USD_PRICE: z
    .string()
    .regex(/^\d+(\.\d+)?$/, 'must be a positive number')
    .transform(Number)
    .optional(),
  SMART_MONEY_LARGE_SWAP_USD: int(1, 1_000_000_000).default(10_000),
  DEPOSIT_CONFIRMATIONS: int(0, 1000).optional(),
  // x402 payments (docs/payments.md): the EIP-3009 token payments settle in (default: the devnet's USDC,
  // or USDC on Base when CHAIN_RPC_URL is set), who receives them (default: the treasury), the key that
  // pays settlement gas in the local facilitator (default on the devnet: its funded treasury account),
  // an optional hosted facilitator, the price of an analysis past the free limit, and how much CLAW one
  // USDC buys (top-ups; agents' CLAW prices paid in USDC).
  X402_ASSET_ADDRESS: address.optional(),
  X402_PAY_TO: address.optional(),
  X402_FACILITATOR_PRIVATE_KEY: privateKey.optional(),
  X402_FACILITATOR_URL: url(['http:', 'https:']).optional(),
  X402_ANALYZE_PRICE_USDC: usdcAmount.default('0.02'),
  X402_CLAW_PER_USDC: usdcAmount.default('1000'),
  X402_TOPUP_MAX_USDC: usdcAmount.default('1000'),
  // Senders whose transfers to the treasury are never credited (the platform's own accounts),
  // besides the treasury and its Safe owners, which are always excluded.
  DEPOSIT_EXCLUDED_SENDERS: addressList.default([]),
  SERVICE_NETWORK: z.enum(['mainnet', 'testnet']).default('mainnet'),
  ALLOW_PRIVATE_URLS: bool.default(false),
  ADMIN_WALLETS: addressList.default([]),
  PUBLIC_BASE_URL: url(['http:', 'https:']).optional(),
  INVOKE_TIMEOUT_MS: int(100, 300_000).default(30_000),
  // A raised price_claw_per_call applies this long after the change (docs/spec-decisions.md, Invocation); 0 at once.
  PRICE_NOTICE_SECONDS: int(0, 30 * 86_400).default(600),
  // Anti-Sybil: an endorser's oldest agent must be at least this old (0 turns the rule off).
  ENDORSER_MIN_AGE_HOURS: int(0, 8_760).default(0),
  // Anti-farming: the leaderboard counts only completed jobs with at least this bounty (whole CLAW).
  LEADERBOARD_MIN_JOB_BOUNTY_CLAW: int(0, 1_000_000_000).default(1),
  // Jobs: an executing job's delivery deadline is accepted_at + the bid's eta_seconds + this grace;
  // after it the poster may cancel and take the bounty back.
  JOB_DELIVERY_GRACE_HOURS: int(0, 8_760).default(24),
  // Signals: a publisher's resolution is paid only after this window, in which a staker may dispute it.
  SIGNAL_DISPUTE_WINDOW_HOURS: int(1, 8_760).default(24),
  TRUST_PROXY: bool.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // EIP-191 recovery: the native libsecp256k1 addon when it loads, or viem's pure JS (benchmarks).
  SIGNATURE_BACKEND: z.enum(['native', 'js']).default('native'),
  // Human pages' proof-of-work bot check (ALTCHA, docs/ui.md): on/off, work per attempt, how long a pass lasts.
  BOT_CHECK: z.enum(['on', 'off']).default('on'),
  BOT_CHECK_COST: int(1, 1_000_000).default(5_000),
  BOT_CHECK_TTL_HOURS: int(1, 24 * 365).default(24 * 7),
  // Tests only: the web app offers wagmi's mock connector for this address, signing through this JSON-RPC node.
  UI_MOCK_WALLET: address.optional(),
  UI_MOCK_WALLET_RPC_URL: url(['http:', 'https:']).optional(),
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  CRON_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  // Event stream (spec: Limits, Stream) and webhooks (Limits, Webhook); docs/events.md.
  STREAM_HEARTBEAT_MS: int(100, 600_000).default(15_000),
  STREAM_MAX_AGE_MS: int(1000, 86_400_000).default(3_600_000),
  STREAM_MAX_PER_CALLER: int(1, 10_000).default(5),
  WEBHOOK_TIMEOUT_MS: int(100, 60_000).default(10_000),
  WEBHOOK_DISABLE_AFTER: int(1, 10_000).default(10),
  // Backpressure (docs/reliability.md, Limits): open streams on one instance (503 above), webhook
  // attempts in flight from one instance and to one webhook, the failed attempts in a row that pause
  // a webhook (its circuit opens: 1 s, doubling, at most WEBHOOK_CIRCUIT_MAX_MS; then one probe at a
  // time), and pipeline runs started by requests at once on one instance (503 above) and per caller (429).
  STREAM_MAX_OPEN: int(1, 1_000_000).default(10_000),
  WEBHOOK_MAX_IN_FLIGHT: int(1, 10_000).default(64),
  WEBHOOK_MAX_PER_RECEIVER: int(1, 1_000).default(4),
  WEBHOOK_CIRCUIT_AFTER: int(1, 10_000).default(5),
  WEBHOOK_CIRCUIT_MAX_MS: int(1000, 86_400_000).default(300_000),
  PIPELINE_MAX_CONCURRENT_RUNS: int(1, 10_000).default(32),
  PIPELINE_MAX_RUNS_PER_CALLER: int(1, 10_000).default(4),
  WEBHOOKS_PER_CALLER: int(1, 10_000).default(20),
});

const RATE_LIMIT_PATTERN = /^(\d+)\/(\d+)(s|m|h|d)$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

export interface RateLimitOverride {
  limit: number;
  windowMs: number;
}

export type Config = Omit<z.output<typeof schema>, 'PUBLIC_BASE_URL' | 'AUTH_SECRET' | 'CRON_SECRET'> & {
  PUBLIC_BASE_URL: string;
  AUTH_SECRET: string;
  CRON_SECRET: string;
  /** RATE_LIMIT_<NAME>=<count>/<window>, keyed by the lowercase policy name. */
  rateLimits: Record<string, RateLimitOverride>;
};

export class ConfigError extends Error {}

/** Parses `RATE_LIMIT_<NAME>` values such as `3/24h`; null when malformed. */
export function parseRateLimit(value: string): RateLimitOverride | null {
  const match = RATE_LIMIT_PATTERN.exec(value.trim());
  if (!match) return null;
  const limit = Number(match[1]);
  const windowMs = Number(match[2]) * UNIT_MS[match[3] as keyof typeof UNIT_MS];
  if (limit < 1 || windowMs < 1000) return null;
  return { limit, windowMs };
}

/**
 * Reads and validates the environment. Throws ConfigError with a one-line message naming the
 * variable. Generates AUTH_SECRET and CRON_SECRET once into DATA_DIR when they are unset.
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  // An empty variable counts as unset, as in most deployment tools.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`invalid configuration: ${String(issue.path[0])} ${issue.message}`);
  }
  const rateLimits: Record<string, RateLimitOverride> = {};
  for (const [key, value] of Object.entries(present)) {
    if (!key.startsWith('RATE_LIMIT_')) continue;
    const parsedLimit = parseRateLimit(value!);
    if (!parsedLimit) throw new ConfigError(`invalid configuration: ${key} must look like <count>/<window>, for example 3/24h`);
    const name = key.slice('RATE_LIMIT_'.length).toLowerCase();
    if (!(name in RATE_LIMIT_POLICIES)) {
      const known = Object.keys(RATE_LIMIT_POLICIES).map((policy) => `RATE_LIMIT_${policy.toUpperCase()}`);
      throw new ConfigError(`invalid configuration: ${key} names no rate-limit policy (known: ${known.join(', ')})`);
    }
    rateLimits[name] = parsedLimit;
  }
  const values = parsed.data;
  const dataDir = path.resolve(values.DATA_DIR);
  const secrets = values.AUTH_SECRET && values.CRON_SECRET ? null : loadGeneratedSecrets(dataDir);
  return {
    ...values,
    DATA_DIR: dataDir,
    PUBLIC_BASE_URL: (values.PUBLIC_BASE_URL ?? `http://localhost:${values.PORT}`).replace(/\/$/, ''),
    AUTH_SECRET: values.AUTH_SECRET ?? secrets!.AUTH_SECRET,
    CRON_SECRET: values.CRON_SECRET ?? secrets!.CRON_SECRET,
    rateLimits,
  };
}

function loadGeneratedSecrets(dataDir: string): { AUTH_SECRET: string; CRON_SECRET: string } {
  const file = path.join(dataDir, 'secrets.json');
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { AUTH_SECRET: string; CRON_SECRET: string };
    if (stored.AUTH_SECRET && stored.CRON_SECRET) return stored;
  }
  const secrets = { AUTH_SECRET: randomBytes(32).toString('hex'), CRON_SECRET: randomBytes(32).toString('hex') };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
