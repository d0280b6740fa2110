import { erc20Abi, getAddress, parseAbi, parseAbiItem, zeroAddress, type Address, type PublicClient } from 'viem';
import type { ChainAddresses } from '../chain/addresses';
import type { Pool } from './simulate-trades';
import { tryRead } from './try-read';

// The token's main pool and who holds its liquidity. LP tokens burned to 0x0 or 0x…dEaD are locked
// forever; LP tokens held by a known locker (LIQUIDITY_LOCKERS) are locked until the unlock time the
// locker reports through one of the common interfaces: UNCX (Unicrypt) V2, PinkLock V2, Team Finance,
// or the devnet's LiquidityLocker (its Locked events). Anything else counts as unlocked.

export const DEAD = getAddress('0x000000000000000000000000000000000000dEaD');
const V3_FEES = [100, 500, 3000, 10_000] as const;

const factoryAbi = parseAbi([
  'function getPair(address, address) view returns (address)',
  'function getPool(address, address, uint24) view returns (address)',
]);
const uncxAbi = parseAbi([
  'function getNumLocksForToken(address) view returns (uint256)',
  'function tokenLocks(address, uint256) view returns (uint256 lockDate, uint256 amount, uint256 initialAmount, uint256 unlockDate, uint256 lockID, address owner)',
]);
const pinkAbi = parseAbi([
  'struct Lock { uint256 id; address token; address owner; uint256 amount; uint256 lockDate; uint256 tgeDate; uint256 tgeBps; uint256 cycle; uint256 cycleBps; uint256 unlockedAmount; string description; }',
  'function getTotalLockCountForToken(address) view returns (uint256)',
  'function getLocksForToken(address, uint256, uint256) view returns (Lock[])',
]);
const teamFinanceAbi = parseAbi([
  'function getDepositsByTokenAddress(address) view returns (uint256[])',
  'function lockedToken(uint256) view returns (address tokenAddress, address withdrawalAddress, uint256 tokenAmount, uint256 unlockTime, bool withdrawn)',
]);
const devnetLockerAbi = parseAbi([
  'function locks(uint256) view returns (address token, address beneficiary, uint256 amount, uint256 unlockAt)',
]);
const lockedEvent = parseAbiItem(
  'event Locked(uint256 indexed id, address indexed token, address beneficiary, uint256 amount, uint256 unlockAt)',
);
/** At most this many locks are read per locker and pool. */
const MAX_LOCKS = 20;

export async function findMainPool(client: PublicClient, token: Address, addresses: ChainAddresses): Promise<Pool | null> {
  const { weth } = addresses;
  const wethBalance = (pool: Address) =>
    client.readContract({ address: weth, abi: erc20Abi, functionName: 'balanceOf', args: [pool] });
  const v2 = tryRead(() =>
    client.readContract({ address: addresses.uniswapV2Factory, abi: factoryAbi, functionName: 'getPair', args: [token, weth] }),
  );
  const v3 = V3_FEES.map((fee) =>
    tryRead(() =>
      client.readContract({
        address: addresses.uniswapV3Factory,
        abi: factoryAbi,
        functionName: 'getPool',
        args: [token, weth, fee],
      }),
    ),
  );
  const swapRouter02 = addresses.swapRouterAllowlist.find((router) => router !== addresses.uniswapV2Router) ?? null;
  const candidates: Pool[] = [];
  const [v2Pair, ...v3Pools] = await Promise.all([v2, ...v3]);
  const found: { version: 2 | 3; address: Address; fee: number; router: Address }[] = [];
  if (v2Pair && v2Pair !== zeroAddress) found.push({ version: 2, address: v2Pair, fee: 0, router: addresses.uniswapV2Router });
  v3Pools.forEach((pool, index) => {
    if (pool && pool !== zeroAddress && swapRouter02)
      found.push({ version: 3, address: pool, fee: V3_FEES[index]!, router: swapRouter02 });
  });
  const reserves = await Promise.all(found.map((pool) => tryRead(() => wethBalance(pool.address))));
  found.forEach((pool, index) => {
    const wethReserve = reserves[index] ?? 0n;
    if (wethReserve > 0n) candidates.push({ ...pool, wethReserve });
  });
  // The deepest pool; V2 first on a tie (its LP tokens can be checked for locks).
  candidates.sort((a, b) => (b.wethReserve > a.wethReserve ? 1 : b.wethReserve < a.wethReserve ? -1 : a.version - b.version));
  return candidates[0] ?? null;
}

interface LockerReading {
  locked: bigint;
  earliestUnlock: bigint | null;
}

async function readLocks(client: PublicClient, locker: Address, lp: Address, now: bigint): Promise<LockerReading | null> {
  const active: { amount: bigint; unlock: bigint }[] = [];
  const uncxCount = await tryRead(() =>
    client.readContract({ address: locker, abi: uncxAbi, functionName: 'getNumLocksForToken', args: [lp] }),
  );
  if (uncxCount !== null) {
    const count = Number(uncxCount > BigInt(MAX_LOCKS) ? BigInt(MAX_LOCKS) : uncxCount);
    const locks = await Promise.all(
      Array.from({ length: count }, (_, index) =>
        client.readContract({ address: locker, abi: uncxAbi, functionName: 'tokenLocks', args: [lp, BigInt(index)] }),
      ),
    );
    for (const [, amount, , unlockDate] of locks) active.push({ amount, unlock: unlockDate });
  } else {
    const pinkCount = await tryRead(() =>
      client.readContract({ address: locker, abi: pinkAbi, functionName: 'getTotalLockCountForToken', args: [lp] }),
    );
    if (pinkCount !== null) {
      const end = pinkCount > BigInt(MAX_LOCKS) ? BigInt(MAX_LOCKS) : pinkCount;
      const locks =
        end > 0n
          ? await client.readContract({
              address: locker,
              abi: pinkAbi,
              functionName: 'getLocksForToken',
              args: [lp, 0n, end - 1n],
            })
          : [];
      for (const lock of locks) active.push({ amount: lock.amount - lock.unlockedAmount, unlock: lock.tgeDate });
    } else {
      const deposits = await tryRead(() =>
        client.readContract({ address: locker, abi: teamFinanceAbi, functionName: 'getDepositsByTokenAddress', args: [lp] }),
      );
      if (deposits !== null) {
        const locks = await Promise.all(
          deposits
            .slice(0, MAX_LOCKS)
            .map((id) => client.readContract({ address: locker, abi: teamFinanceAbi, functionName: 'lockedToken', args: [id] })),
        );
        for (const [, , amount, unlockTime, withdrawn] of locks) if (!withdrawn) active.push({ amount, unlock: unlockTime });
      } else {
        const logs = await tryRead(() =>
          client.getLogs({ address: locker, event: lockedEvent, args: { token: lp }, fromBlock: 'earliest', toBlock: 'latest' }),
        );
        if (logs === null || logs.length === 0) return null;
        const locks = await Promise.all(
          logs
            .slice(0, MAX_LOCKS)
            .map((log) =>
              client.readContract({ address: locker, abi: devnetLockerAbi, functionName: 'locks', args: [log.args.id!] }),
            ),
        );
        for (const [, , amount, unlockAt] of locks) active.push({ amount, unlock: unlockAt });
      }
    }
  }
  let locked = 0n;
  let earliestUnlock: bigint | null = null;
  for (const lock of active) {
    if (lock.unlock <= now || lock.amount === 0n) continue;
    locked += lock.amount;
    if (earliestUnlock === null || lock.unlock < earliestUnlock) earliestUnlock = lock.unlock;
  }
  return { locked, earliestUnlock };
}

export interface LiquidityReading {
  burnedShare: number;
  lockedShare: number;
  unlockInDays: number | null;
}

const share = (part: bigint, whole: bigint) => (whole === 0n ? 0 : Number((part * 1_000_000n) / whole) / 1_000_000);

/** Who holds a V2 pair's LP tokens: burned, known lockers (with their unlock time), or others. */
export async function readLiquidity(
  client: PublicClient,
  pool: Pool,
  lockers: readonly Address[],
  now: bigint,
): Promise<LiquidityReading> {
  if (pool.version !== 2) return { burnedShare: 0, lockedShare: 0, unlockInDays: null };
  const balance = (holder: Address) =>
    client.readContract({ address: pool.address, abi: erc20Abi, functionName: 'balanceOf', args: [holder] });
  const [supply, zero, dead, ...held] = await Promise.all([
    client.readContract({ address: pool.address, abi: erc20Abi, functionName: 'totalSupply' }),
    balance(zeroAddress),
    balance(DEAD),
    ...lockers.map(balance),
  ]);
  let locked = 0n;
  let earliestUnlock: bigint | null = null;
  const readings = await Promise.all(
    lockers.map((locker, index) =>
      held[index]! > 0n ? tryRead(() => readLocks(client, locker, pool.address, now)) : Promise.resolve(null),
    ),
  );
  readings.forEach((reading, index) => {
    if (!reading) return;
    // A locker cannot lock more than it holds.
    locked += reading.locked < held[index]! ? reading.locked : held[index]!;
    if (reading.earliestUnlock !== null && (earliestUnlock === null || reading.earliestUnlock < earliestUnlock))
      earliestUnlock = reading.earliestUnlock;
  });
  return {
    burnedShare: share(zero + dead, supply),
    lockedShare: share(locked, supply),
    unlockInDays: earliestUnlock === null ? null : Math.floor(Number((earliestUnlock as bigint) - now) / 86_400),
  };
}
