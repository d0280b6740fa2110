import { erc20Abi, getAddress, parseAbi, parseAbiItem, zeroAddress, type Address, type PublicClient } from 'viem';
import type { ChainAddresses } from '../chain/addresses';
import type { Pool } from './simulate-trades';
import { tryRead } from './try-read';

// The token's main pool and who holds its liquidity. LP tokens burned to 0x0 or 0x…dEaD are locked
// forever; LP tokens held by a known locker (LIQUIDITY_LOCKERS) are locked until the unlock time the
// locker reports through one of the common interfaces: UNCX (Unicrypt) V2, PinkLock V2, Team Finance,
// or the devnet's LiquidityLocker (its Locked events). Anything else counts as unlocked.
// A V3 pool's liquidity is in position NFTs of the NonfungiblePositionManager: positions held by
// 0x…dEaD are burned, positions held by a locker answering UNCX's V3 interface are locked until
// their lock's unlock date; shares are of the pool's in-range liquidity.

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
  'function totalLockCountForToken(address) view returns (uint256)',
  'function getLocksForToken(address, uint256, uint256) view returns (Lock[])',
]);
const teamFinanceAbi = parseAbi([
  'function getDepositsByTokenAddress(address) view returns (uint256[])',
  'function lockedToken(uint256) view returns (address tokenAddress, address withdrawalAddress, uint256 tokenAmount, uint256 unlockTime, bool withdrawn)',
]);
const positionManagerAbi = parseAbi([
  'function positionManager() view returns (address)',
  'function balanceOf(address) view returns (uint256)',
  'function tokenOfOwnerByIndex(address, uint256) view returns (uint256)',
  'function positions(uint256) view returns (uint96 nonce, address operator, address token0, address token1, uint24 fee, int24 tickLower, int24 tickUpper, uint128 liquidity, uint256 feeGrowthInside0LastX128, uint256 feeGrowthInside1LastX128, uint128 tokensOwed0, uint128 tokensOwed1)',
]);
const v3PoolAbi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
  'function liquidity() view returns (uint128)',
  'function token0() view returns (address)',
  'function token1() view returns (address)',
]);
const uncxV3Abi = parseAbi([
  'struct Lock { uint256 lock_id; address nftPositionManager; address pool; uint256 nft_id; address owner; address pendingOwner; address additionalCollector; address collectAddress; uint256 unlockDate; uint16 countryCode; uint256 ucf; }',
  'function getLocksLength() view returns (uint256)',
  'function getLock(uint256) view returns (Lock)',
]);
const devnetLockerAbi = parseAbi([
  'function locks(uint256) view returns (address token, address beneficiary, uint256 amount, uint256 unlockAt)',
]);
const lockedEvent = parseAbiItem(
  'event Locked(uint256 indexed id, address indexed token, address beneficiary, uint256 amount, uint256 unlockAt)',
);
/** At most this many locks are read per locker and pool. */
const MAX_LOCKS = 20;
/** At most this many position NFTs (the newest) are read per V3 holder. */
const MAX_POSITIONS = 20;

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
      client.readContract({ address: locker, abi: pinkAbi, functionName: 'totalLockCountForToken', args: [lp] }),
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

const daysUntil = (unlock: bigint | null, now: bigint) => (unlock === null ? null : Math.floor(Number(unlock - now) / 86_400));

const share = (part: bigint, whole: bigint) => (whole === 0n ? 0 : Number((part * 1_000_000n) / whole) / 1_000_000);

/** Who holds a V2 pair's LP tokens: burned, known lockers (with their unlock time), or others. */
export async function readLiquidity(
  client: PublicClient,
  pool: Pool,
  lockers: readonly Address[],
  now: bigint,
): Promise<LiquidityReading> {
  if (pool.version !== 2) return readV3Liquidity(client, pool, lockers, now);
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
    unlockInDays: daysUntil(earliestUnlock, now),
  };
}

/** The newest (at most MAX_POSITIONS) position NFTs `holder` owns at the position manager. */
async function positionsOf(client: PublicClient, manager: Address, holder: Address): Promise<bigint[]> {
  const count = await tryRead(() =>
    client.readContract({ address: manager, abi: positionManagerAbi, functionName: 'balanceOf', args: [holder] }),
  );
  if (!count) return [];
  const take = count > BigInt(MAX_POSITIONS) ? MAX_POSITIONS : Number(count);
  return Promise.all(
    Array.from({ length: take }, (_, index) =>
      client.readContract({
        address: manager,
        abi: positionManagerAbi,
        functionName: 'tokenOfOwnerByIndex',
        args: [holder, count - 1n - BigInt(index)],
      }),
    ),
  );
}

/** Unlock dates by NFT id from a locker with UNCX's V3 interface (its newest MAX_LOCKS locks); null otherwise. */
async function uncxV3Unlocks(client: PublicClient, locker: Address, manager: Address): Promise<Map<bigint, bigint> | null> {
  const length = await tryRead(() => client.readContract({ address: locker, abi: uncxV3Abi, functionName: 'getLocksLength' }));
  if (length === null) return null;
  const take = length > BigInt(MAX_LOCKS) ? MAX_LOCKS : Number(length);
  const locks = await Promise.all(
    Array.from({ length: take }, (_, index) =>
      client.readContract({ address: locker, abi: uncxV3Abi, functionName: 'getLock', args: [length - 1n - BigInt(index)] }),
    ),
  );
  const unlocks = new Map<bigint, bigint>();
  for (const lock of locks) if (getAddress(lock.nftPositionManager) === manager) unlocks.set(lock.nft_id, lock.unlockDate);
  return unlocks;
}

/**
 * Who holds a V3 pool's in-range liquidity: position NFTs of the router's position manager held by
 * 0x…dEaD (burned; an NFT cannot be sent to 0x0) or by a known locker with an active UNCX V3 lock.
 */
async function readV3Liquidity(
  client: PublicClient,
  pool: Pool,
  lockers: readonly Address[],
  now: bigint,
): Promise<LiquidityReading> {
  const none = { burnedShare: 0, lockedShare: 0, unlockInDays: null };
  const read = <F extends 'slot0' | 'liquidity' | 'token0' | 'token1'>(functionName: F) =>
    client.readContract({ address: pool.address, abi: v3PoolAbi, functionName });
  const [manager, slot0, poolLiquidity, token0, token1] = await Promise.all([
    tryRead(() => client.readContract({ address: pool.router, abi: positionManagerAbi, functionName: 'positionManager' })),
    read('slot0'),
    read('liquidity'),
    read('token0'),
    read('token1'),
  ]);
  if (!manager || poolLiquidity === 0n) return none;
  const tick = slot0[1];
  const holders = [DEAD, ...lockers.filter((locker) => locker !== DEAD)];
  const owned = await Promise.all(holders.map((holder) => positionsOf(client, manager, holder)));
  /** In-range liquidity of `holder`'s positions in this pool, by NFT id. */
  const inPool = await Promise.all(
    owned.map(async (ids) => {
      const positions = await Promise.all(
        ids.map((id) =>
          client.readContract({ address: manager, abi: positionManagerAbi, functionName: 'positions', args: [id] }),
        ),
      );
      const found = new Map<bigint, bigint>();
      positions.forEach(([, , p0, p1, fee, lower, upper, liquidity], index) => {
        if (p0 === token0 && p1 === token1 && fee === pool.fee && lower <= tick && tick < upper && liquidity > 0n)
          found.set(ids[index]!, liquidity);
      });
      return found;
    }),
  );
  let burned = 0n;
  for (const liquidity of inPool[0]!.values()) burned += liquidity;
  let locked = 0n;
  let earliestUnlock: bigint | null = null;
  await Promise.all(
    holders.slice(1).map(async (locker, index) => {
      const positions = inPool[index + 1]!;
      if (positions.size === 0) return;
      const unlocks = await uncxV3Unlocks(client, locker, getAddress(manager));
      if (!unlocks) return;
      for (const [id, liquidity] of positions) {
        const unlock = unlocks.get(id);
        if (unlock === undefined || unlock <= now) continue;
        locked += liquidity;
        if (earliestUnlock === null || unlock < earliestUnlock) earliestUnlock = unlock;
      }
    }),
  );
  const capped = (part: bigint) => share(part > poolLiquidity ? poolLiquidity : part, poolLiquidity);
  return { burnedShare: capped(burned), lockedShare: capped(locked), unlockInDays: daysUntil(earliestUnlock, now) };
}
