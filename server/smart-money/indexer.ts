import { erc20Abi, formatUnits, getAddress, parseAbiItem, parseEventLogs, type Address, type Hex } from 'viem';
import { artifact } from '../chain/artifacts';
import { chainIfEnabled, rpcError, type ChainContext } from '../chain/client';
import { tokenDecimals } from '../chain/tokens';
import { db, withTransaction } from '../core/db';
import { log } from '../core/log';
import { currentRuntime } from '../core/runtime';
import { sharedCache } from '../core/shared-state';
import { emit } from '../events/emit';
import { usdPerEth, usdValue, type UsdMethod } from '../trade/prices';

// The smart-money indexer (scheduled): block range by block range, finds the transactions that moved a
// token from or to a tracked wallet (Transfer logs), reads the Uniswap V2 and V3 Swap logs of those a
// tracked wallet sent, and turns each into a
// SmartMoneyEvent, its alerts and their events, all in one database transaction. Positions come from
// token balances at the swap's block (ERC-20 balanceOf at block N-1 and N): buying a token the wallet
// held none of is a new position, selling all of it an exit. docs/smart-money.md.

const V2_SWAP = parseAbiItem(
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
);
const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const V3_SWAP = parseAbiItem(
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
);
export const INDEXER = {
  /** Blocks read per tick. */
  maxRange: 2000n,
  /** Where a fresh indexer starts: this many blocks back from the head. */
  startBack: 100n,
  /** unusual_volume: a swap above this many times the wallet's average over the last 30 days, with 3+ earlier swaps. */
  unusualFactor: 5,
  unusualMinHistory: 3,
  /** Tracked wallets per Transfer-log query (topic OR-lists). */
  walletsPerQuery: 100,
} as const;
const CURSOR = 'swaps';

interface PoolInfo {
  token0: Address;
  token1: Address;
  dex: 'uniswap_v2' | 'uniswap_v3';
}
/**
 * What poolInfo() learned per chain and pool address. A pool's tokens never change, so entries live a
 * day; the cache is bounded (the oldest entry goes past 10,000), so a flood of fake pools cannot grow it.
 */
const pools = sharedCache<PoolInfo | null>('smart-money-pools', { ttlMs: 24 * 3_600_000, maxEntries: 10_000, dropOn: [] });

/** The pool's tokens, when it really is a pool of the configured factory (a fake pool's logs are ignored). */
function poolInfo(context: ChainContext, address: Address, dex: PoolInfo['dex']): Promise<PoolInfo | null> {
  return pools().get(`${context.rpcUrl}:${address}`, () => readPoolInfo(context, address, dex));
}

async function readPoolInfo(context: ChainContext, address: Address, dex: PoolInfo['dex']): Promise<PoolInfo | null> {
  const { client, addresses } = context;
  let info: PoolInfo | null = null;
  try {
    const abi = artifact(dex === 'uniswap_v2' ? 'UniswapV2Pair' : 'UniswapV3Pool').abi;
    const [token0, token1] = (await Promise.all([
      client.readContract({ address, abi, functionName: 'token0' }),
      client.readContract({ address, abi, functionName: 'token1' }),
    ])) as [Address, Address];
    if (dex === 'uniswap_v2') {
      const pair = (await client.readContract({
        address: addresses.uniswapV2Factory,
        abi: artifact('UniswapV2Factory').abi,
        functionName: 'getPair',
        args: [token0, token1],
      })) as Address;
      if (getAddress(pair) === getAddress(address)) info = { token0: getAddress(token0), token1: getAddress(token1), dex };
    } else {
      const fee = (await client.readContract({ address, abi, functionName: 'fee' })) as number;
      const pool = (await client.readContract({
        address: addresses.uniswapV3Factory,
        abi: artifact('UniswapV3Factory').abi,
        functionName: 'getPool',
        args: [token0, token1, fee],
      })) as Address;
      if (getAddress(pool) === getAddress(address)) info = { token0: getAddress(token0), token1: getAddress(token1), dex };
    }
  } catch {
    info = null;
  }
  return info;
}

const confidenceFor = (volumeUsd: number) => (volumeUsd >= 1_000_000 ? 'high' : volumeUsd >= 100_000 ? 'medium' : 'low');

async function symbolOf(context: ChainContext, token: Address): Promise<string> {
  if (token === context.addresses.weth) return 'WETH';
  if (token === context.addresses.platformToken) return 'VOUCH';
  const sample = context.devnet?.sampleTokens.find((t) => t.address === token);
  if (sample) return sample.symbol;
  try {
    return String(await context.client.readContract({ address: token, abi: erc20Abi, functionName: 'symbol' }));
  } catch {
    return token.slice(0, 8);
  }
}

async function balanceAt(context: ChainContext, token: Address, holder: Address, block: bigint): Promise<bigint> {
  return context.client.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [holder],
    blockNumber: block,
  });
}

/** One indexer pass; returns the number of events recorded. Safe to run on several instances (unique (tx, log)). */
export async function indexSmartMoney(): Promise<number> {
  const context = await chainIfEnabled().catch(() => null);
  if (!context) return 0;
  const { client } = context;
  let head: bigint;
  try {
    head = await client.getBlockNumber({ cacheTime: 0 });
  } catch (error) {
    throw rpcError(error);
  }
  const cursor = await db().smartMoneyCursor.findUnique({ where: { id: CURSOR } });
  const from = cursor ? cursor.lastBlock + 1n : head > INDEXER.startBack ? head - INDEXER.startBack : 0n;
  if (from > head) return 0;
  const to = from + INDEXER.maxRange - 1n < head ? from + INDEXER.maxRange - 1n : head;
  const tracked = new Map((await db().smartMoneyWallet.findMany()).map((w) => [w.walletAddress, w]));
  let recorded = 0;
  if (tracked.size > 0) {
    // Candidates: transactions that moved an ERC-20 from or to a tracked wallet (Transfer topics are
    // indexed, so the node filters them), then their receipts' Swap logs when a tracked wallet sent them.
    const wallets = [...tracked.keys()] as Address[];
    const hashes = new Set<Hex>();
    for (let i = 0; i < wallets.length; i += INDEXER.walletsPerQuery) {
      const chunk = wallets.slice(i, i + INDEXER.walletsPerQuery);
      const [outgoing, incoming] = await Promise.all([
        client.getLogs({ event: TRANSFER, args: { from: chunk }, fromBlock: from, toBlock: to }),
        client.getLogs({ event: TRANSFER, args: { to: chunk }, fromBlock: from, toBlock: to }),
      ]).catch((error) => {
        throw rpcError(error);
      });
      for (const entry of [...outgoing, ...incoming]) if (entry.transactionHash) hashes.add(entry.transactionHash);
    }
    for (const hash of hashes) {
      const receipt = await client.getTransactionReceipt({ hash }).catch((error) => {
        throw rpcError(error);
      });
      const wallet = tracked.get(getAddress(receipt.from));
      if (!wallet || receipt.status !== 'success') continue;
      const swaps = parseEventLogs({ abi: [V2_SWAP, V3_SWAP], logs: receipt.logs });
      for (const entry of swaps) {
        try {
          if (await recordSwap(context, wallet.walletAddress as Address, wallet.label, entry as never)) recorded += 1;
        } catch (error) {
          log.error({ tx: hash, err: (error as Error).message }, 'smart-money: a swap could not be recorded');
          throw error;
        }
      }
    }
  }
  await db().smartMoneyCursor.upsert({ where: { id: CURSOR }, create: { id: CURSOR, lastBlock: to }, update: { lastBlock: to } });
  return recorded;
}

interface SwapLog {
  address: Address;
  eventName: 'Swap';
  args: Record<string, bigint | Address>;
  transactionHash: Hex;
  blockNumber: bigint;
  logIndex: number;
  topics: Hex[];
}

async function recordSwap(context: ChainContext, wallet: Address, label: string | null, entry: SwapLog): Promise<boolean> {
  const isV3 = 'amount0' in entry.args;
  const pool = await poolInfo(context, getAddress(entry.address), isV3 ? 'uniswap_v3' : 'uniswap_v2');
  if (!pool) return false;
  let zeroIn: boolean;
  let amountIn: bigint;
  let amountOut: bigint;
  if (isV3) {
    const a0 = entry.args.amount0 as bigint;
    const a1 = entry.args.amount1 as bigint;
    zeroIn = a0 > 0n;
    amountIn = zeroIn ? a0 : a1;
    amountOut = zeroIn ? -a1 : -a0;
  } else {
    const { amount0In, amount1In, amount0Out, amount1Out } = entry.args as Record<string, bigint>;
    zeroIn = amount0In! > 0n;
    amountIn = zeroIn ? amount0In! : amount1In!;
    amountOut = zeroIn ? amount1Out! : amount0Out!;
  }
  const tokenIn = zeroIn ? pool.token0 : pool.token1;
  const tokenOut = zeroIn ? pool.token1 : pool.token0;
  const weth = context.addresses.weth;

  // USD: the WETH side when there is one, else token_in's price in ETH; method recorded.
  let usd: { usd: number; method: UsdMethod } | null = null;
  if (tokenIn === weth || tokenOut === weth) {
    const perEth = await usdPerEth();
    if (perEth)
      usd = { usd: Number(formatUnits(tokenIn === weth ? amountIn : amountOut, 18)) * perEth.usd, method: perEth.method };
  } else {
    usd = await usdValue(tokenIn, amountIn).catch(() => null);
  }
  const amountUsd = usd ? Math.round(usd.usd * 100) / 100 : 0;

  const block = await context.client.getBlock({ blockNumber: entry.blockNumber });
  const timestamp = new Date(Number(block.timestamp) * 1000);
  const newPosition = tokenOut !== weth && (await balanceAt(context, tokenOut, wallet, entry.blockNumber - 1n)) === 0n;
  const exit = tokenIn !== weth && (await balanceAt(context, tokenIn, wallet, entry.blockNumber)) === 0n;
  const [symbolIn, symbolOut, decimalsIn, decimalsOut] = await Promise.all([
    symbolOf(context, tokenIn),
    symbolOf(context, tokenOut),
    tokenDecimals(tokenIn),
    tokenDecimals(tokenOut),
  ]);
  const humanIn = formatUnits(amountIn, decimalsIn);
  const humanOut = formatUnits(amountOut, decimalsOut);
  const threshold = currentRuntime().config.SMART_MONEY_LARGE_SWAP_USD;

  // Unusual volume: against the wallet's last 30 days.
  const history = await db().smartMoneyEvent.aggregate({
    where: {
      walletAddress: wallet,
      timestamp: { gte: new Date(timestamp.getTime() - 30 * 86400_000) },
      NOT: { txHash: entry.transactionHash },
    },
    _avg: { amountUsd: true },
    _count: true,
  });
  const average = history._avg.amountUsd ?? 0;
  const unusual = history._count >= INDEXER.unusualMinHistory && average > 0 && amountUsd > average * INDEXER.unusualFactor;

  return withTransaction(async (tx) => {
    const inserted = await tx.sql.query<{ id: string }>(
      `INSERT INTO smart_money_events (id, wallet_address, action, token_in, token_out, amount_in_raw, amount_out_raw, amount_usd, usd_method,
         confidence, dex, tx_hash, log_index, block_number, timestamp)
       VALUES (gen_random_uuid(), $1, 'swap', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (tx_hash, log_index) DO NOTHING RETURNING id`,
      [
        wallet,
        tokenIn,
        tokenOut,
        amountIn.toString(),
        amountOut.toString(),
        amountUsd,
        usd?.method ?? 'none',
        'low',
        pool.dex,
        entry.transactionHash,
        entry.logIndex,
        entry.blockNumber.toString(),
        timestamp,
      ],
    );
    const eventId = inserted[0]?.id;
    if (!eventId) return false;
    const current = await tx.prisma.smartMoneyWallet.findUniqueOrThrow({ where: { walletAddress: wallet } });
    const volume = current.totalVolumeUsd + amountUsd;
    const confidence = usd ? confidenceFor(volume) : 'low';
    // win_rate: share of exits that sold for more USD than the wallet's recorded buys of that token.
    let winRate = current.winRate;
    let realizedPnl: number | null = null;
    if (exit) {
      const [buys, sells, exits] = await Promise.all([
        tx.prisma.smartMoneyEvent.aggregate({ where: { walletAddress: wallet, tokenOut: tokenIn }, _sum: { amountUsd: true } }),
        tx.prisma.smartMoneyEvent.aggregate({ where: { walletAddress: wallet, tokenIn }, _sum: { amountUsd: true } }),
        tx.prisma.smartMoneyAlert.count({ where: { walletAddress: wallet, type: 'exit' } }),
      ]);
      realizedPnl = Math.round(((sells._sum.amountUsd ?? 0) - (buys._sum.amountUsd ?? 0)) * 100) / 100;
      const wins = Math.round(current.winRate * exits) + (realizedPnl > 0 ? 1 : 0);
      winRate = wins / (exits + 1);
    }
    await tx.prisma.smartMoneyWallet.update({
      where: { walletAddress: wallet },
      data: { totalVolumeUsd: volume, confidence, lastActive: timestamp, winRate },
    });
    await tx.prisma.smartMoneyEvent.update({ where: { id: eventId }, data: { confidence } });

    const who = label ? `${label} (${wallet})` : wallet;
    const swapText = `${humanIn} ${symbolIn} for ${humanOut} ${symbolOut} (~$${amountUsd.toLocaleString('en-US')})`;
    const alerts: { type: string; severity: string; message: string }[] = [];
    if (amountUsd >= threshold) {
      alerts.push({
        type: 'large_swap',
        severity: amountUsd >= threshold * 10 ? 'high' : 'medium',
        message: `${who} swapped ${swapText}`,
      });
    }
    if (unusual) {
      alerts.push({
        type: 'unusual_volume',
        severity: 'medium',
        message: `${who} swapped ${swapText}, over ${INDEXER.unusualFactor}x the 30-day average of $${average.toFixed(2)}`,
      });
    }
    if (newPosition)
      alerts.push({ type: 'new_position', severity: 'low', message: `${who} opened a position in ${symbolOut}: ${swapText}` });
    if (exit) alerts.push({ type: 'exit', severity: 'medium', message: `${who} sold all of its ${symbolIn}: ${swapText}` });

    const tokenRef = (symbol: string, address: Address, amount?: string) => ({ symbol, address, ...(amount ? { amount } : {}) });
    await emit(
      'smart_money.swap',
      {
        id: eventId,
        wallet_address: wallet,
        wallet_label: label,
        token_in: tokenRef(symbolIn, tokenIn, humanIn),
        token_out: tokenRef(symbolOut, tokenOut, humanOut),
        dex: pool.dex,
        tx_hash: entry.transactionHash,
        block_number: Number(entry.blockNumber),
        value_usd: amountUsd,
        timestamp: timestamp.toISOString(),
      },
      tx.sql,
    );
    for (const alert of alerts) {
      const created = await tx.prisma.smartMoneyAlert.create({
        data: {
          eventId,
          type: alert.type,
          walletAddress: wallet,
          message: alert.message,
          severity: alert.severity,
          amountUsd,
          action: 'swap',
        },
      });
      const data = {
        id: created.id,
        type: created.type,
        wallet_address: wallet,
        message: created.message,
        severity: created.severity,
        created_at: created.createdAt.toISOString(),
      };
      await emit('smart_money.alert', data, tx.sql);
      if (alert.type === 'large_swap') {
        await emit(
          'smart_money.large_swap',
          { ...data, amount_usd: amountUsd, tx_hash: entry.transactionHash, event_id: eventId },
          tx.sql,
        );
      }
      if (alert.type === 'new_position') {
        await emit(
          'smart_money.new_position',
          {
            id: created.id,
            wallet_address: wallet,
            wallet_label: label,
            token: tokenRef(symbolOut, tokenOut),
            position_size_usd: amountUsd,
            entry_price: Number(humanIn) / Number(humanOut),
            platform: pool.dex,
            tx_hash: entry.transactionHash,
          },
          tx.sql,
        );
      }
      if (alert.type === 'exit') {
        await emit(
          'smart_money.exit',
          {
            id: created.id,
            wallet_address: wallet,
            wallet_label: label,
            token: tokenRef(symbolIn, tokenIn),
            amount_sold: humanIn,
            realized_pnl_usd: realizedPnl,
            exit_price: Number(humanOut) / Number(humanIn),
            tx_hash: entry.transactionHash,
          },
          tx.sql,
        );
      }
    }
    return true;
  });
}
