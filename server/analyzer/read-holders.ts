import { erc20Abi, getAddress, parseAbiItem, zeroAddress, type Address, type Log, type PublicClient } from 'viem';
import { DEAD } from './read-liquidity';
import { tryRead } from './try-read';

// Holders and creator from the token's Transfer logs (issue 25): balances replayed from every
// Transfer, the largest ten read again with balanceOf (and eth_getCode for is_contract), the creator
// is the sender of the transaction of the first mint (Transfer from 0x0).
//
// Bounded: the logs are read backwards from the latest block in pages of HOLDER_LOG_PAGE blocks, at
// most HOLDER_MAX_PAGES pages. When block 0 is not reached within them the history is incomplete and
// the holder figures are null (never a partial count passed off as the whole). RPC calls at most:
// HOLDER_MAX_PAGES eth_getLogs + 1 totalSupply + 10 balanceOf + 10 eth_getCode + 1 eth_getTransactionByHash
// + 2 balanceOf (creator, owner) = 32 with the defaults.

export const HOLDER_LOG_PAGE = 50_000n;
export const HOLDER_MAX_PAGES = 8;
const TOP = 10;

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

export type HolderTag = 'pair' | 'locker' | 'burn' | 'creator' | null;

export interface TopHolder {
  address: Address;
  percent: number;
  is_contract: boolean;
  is_locked: boolean;
  tag: HolderTag;
}

export interface Holders {
  holder_count: number | null;
  top10_percent: number | null;
  top_holders: TopHolder[] | null;
}

export interface HolderReport {
  /** totalSupply(), null when it could not be read. */
  supply: bigint | null;
  holders: Holders;
  creator: { address: Address | null; balance_percent: number | null };
  owner_balance_percent: number | null;
}

/** Percent with 2 decimals of `part` in `whole`. */
export const percentOf = (part: bigint, whole: bigint): number => (whole > 0n ? Number((part * 10_000n) / whole) / 100 : 0);

type TransferLog = Log<bigint, number, false, typeof transferEvent, true>;

async function transferLogs(client: PublicClient, token: Address, latest: bigint): Promise<TransferLog[] | null> {
  const pages: TransferLog[][] = [];
  let to = latest;
  for (let page = 0; page < HOLDER_MAX_PAGES; page++) {
    const from = to >= HOLDER_LOG_PAGE ? to - HOLDER_LOG_PAGE + 1n : 0n;
    try {
      pages.unshift(
        (await client.getLogs({
          address: token,
          event: transferEvent,
          fromBlock: from,
          toBlock: to,
          strict: true,
        })) as TransferLog[],
      );
    } catch {
      // A node that refuses the range (too many blocks or results): the history is unknown, not a failed analysis.
      return null;
    }
    if (from === 0n) return pages.flat();
    to = from - 1n;
  }
  return null;
}

export async function readHolders(
  client: PublicClient,
  input: { token: Address; latest: bigint; pool: Address | null; lockers: readonly Address[]; owner: Address | null },
): Promise<HolderReport> {
  const { token } = input;
  const balanceOf = (account: Address) =>
    tryRead(() => client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [account] }));
  const [logs, supply, ownerBalance] = await Promise.all([
    transferLogs(client, token, input.latest),
    tryRead(() => client.readContract({ address: token, abi: erc20Abi, functionName: 'totalSupply' })),
    input.owner ? balanceOf(input.owner) : Promise.resolve(null),
  ]);
  const owner_balance_percent = supply && ownerBalance !== null ? percentOf(ownerBalance, supply) : null;
  const unknown: HolderReport = {
    supply,
    holders: { holder_count: null, top10_percent: null, top_holders: null },
    creator: { address: null, balance_percent: null },
    owner_balance_percent,
  };
  if (!logs || !supply) return unknown;

  const balances = new Map<Address, bigint>();
  for (const log of logs) {
    const { from, to, value } = log.args;
    if (from !== zeroAddress) balances.set(getAddress(from), (balances.get(getAddress(from)) ?? 0n) - value);
    balances.set(getAddress(to), (balances.get(getAddress(to)) ?? 0n) + value);
  }
  const firstMint = logs.find((log) => log.args.from === zeroAddress);
  const creatorTx = firstMint ? await tryRead(() => client.getTransaction({ hash: firstMint.transactionHash })) : null;
  const creator = creatorTx ? getAddress(creatorTx.from) : firstMint ? getAddress(firstMint.args.to) : null;

  const holding = [...balances].filter(([address, balance]) => balance > 0n && address !== zeroAddress);
  holding.sort((a, b) => (a[1] === b[1] ? 0 : a[1] > b[1] ? -1 : 1));
  const top = holding.slice(0, TOP).map(([address]) => address);
  const [balancesNow, codes, creatorBalance] = await Promise.all([
    Promise.all(top.map((address) => balanceOf(address))),
    Promise.all(top.map((address) => client.getCode({ address }))),
    creator ? balanceOf(creator) : Promise.resolve(null),
  ]);
  const lockers = new Set(input.lockers.map((address) => getAddress(address)));
  const top_holders = top
    .map((address, index): TopHolder => {
      const burn = address === DEAD || address === zeroAddress;
      const locker = lockers.has(address);
      const tag: HolderTag =
        input.pool && address === getAddress(input.pool)
          ? 'pair'
          : locker
            ? 'locker'
            : burn
              ? 'burn'
              : address === creator
                ? 'creator'
                : null;
      return {
        address,
        percent: percentOf(balancesNow[index] ?? 0n, supply),
        is_contract: Boolean(codes[index] && codes[index] !== '0x'),
        is_locked: burn || locker,
        tag,
      };
    })
    .sort((a, b) => b.percent - a.percent);
  return {
    supply,
    holders: {
      holder_count: holding.length,
      top10_percent: Number(top_holders.reduce((sum, holder) => sum + holder.percent, 0).toFixed(2)),
      top_holders,
    },
    creator: { address: creator, balance_percent: creatorBalance !== null ? percentOf(creatorBalance, supply) : null },
    owner_balance_percent,
  };
}
