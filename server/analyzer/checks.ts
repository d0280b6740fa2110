import {
  concat,
  encodeFunctionData,
  keccak256,
  pad,
  toHex,
  getAddress,
  hexToBigInt,
  parseAbiItem,
  toFunctionSelector,
  zeroAddress,
  type AbiFunction,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem';
import { DEAD } from './read-liquidity';
import { FRIEND_ADDRESS, PROBE_ADDRESS, simulateTrades, type AdminCall, type Pool, type TradeResult } from './simulate-trades';
import { tryRead } from './try-read';

// The GoPlus-style checks (issue 25), decided by behaviour where possible: a privileged call made as
// the owner (or a hidden privileged account) inside the trade simulation, then whether the fresh
// holder can still transfer and sell. The bytecode's selectors only say which calls to try; a check
// is true when the behaviour shows it (or the privileged call itself succeeds), false when there is
// no such function or nobody can call it, and null when it could not be decided (no pool to trade,
// a function that exists but refused every call the analyzer tried, a failure it cannot attribute).

export const CHECK_NAMES = [
  'is_mintable',
  'is_proxy',
  'is_blacklisted',
  'is_whitelisted',
  'is_anti_whale',
  'anti_whale_modifiable',
  'trading_cooldown',
  'transfer_pausable',
  'cannot_buy',
  'cannot_sell_all',
  'slippage_modifiable',
  'hidden_owner',
  'can_take_back_ownership',
  'owner_change_balance',
  'selfdestruct',
  'external_call',
] as const;
export type CheckName = (typeof CHECK_NAMES)[number];
export type Checks = Record<CheckName, boolean | null>;

type Args = (supply: bigint) => readonly unknown[];
const onProbe: Args = () => [PROBE_ADDRESS];
const blockProbe: Args = () => [PROBE_ADDRESS, true];
const one: Args = () => [1n];

/** Known function shapes per pattern and the arguments the analyzer calls them with. */
const PATTERNS = {
  blacklist: {
    'blacklist(address,bool)': blockProbe,
    'setBlacklist(address,bool)': blockProbe,
    'setBlacklisted(address,bool)': blockProbe,
    'setIsBlacklisted(address,bool)': blockProbe,
    'blacklistAddress(address,bool)': blockProbe,
    'setBot(address,bool)': blockProbe,
    'setSniper(address,bool)': blockProbe,
    'setBots(address[],bool)': () => [[PROBE_ADDRESS], true],
    'blockBots(address[])': () => [[PROBE_ADDRESS]],
    'addToBlacklist(address)': onProbe,
    'addBlacklist(address)': onProbe,
    'blacklist(address)': onProbe,
    'addBot(address)': onProbe,
    'blockAccount(address)': onProbe,
    'setCanSell(address,bool)': () => [PROBE_ADDRESS, false],
    'setBlacklist(address[],bool)': () => [[PROBE_ADDRESS], true],
    'setBlacklisted(address[],bool)': () => [[PROBE_ADDRESS], true],
    'manageBlacklist(address[],bool)': () => [[PROBE_ADDRESS], true],
    'blacklistMultipleAccounts(address[],bool)': () => [[PROBE_ADDRESS], true],
    'addBots(address[])': () => [[PROBE_ADDRESS]],
    'addToBlacklist(address[])': () => [[PROBE_ADDRESS]],
    'setBlackList(address,bool)': blockProbe,
    'setBlacklistStatus(address,bool)': blockProbe,
    'updateBlacklist(address,bool)': blockProbe,
    'setIsBot(address,bool)': blockProbe,
    'setBlocked(address,bool)': blockProbe,
    'setBanned(address,bool)': blockProbe,
    'setFrozen(address,bool)': blockProbe,
    'freezeAccount(address,bool)': blockProbe,
    'freezeAccount(address)': onProbe,
    'addToBlackList(address)': onProbe,
    'addBlackList(address)': onProbe,
    'blacklistAccount(address)': onProbe,
    'blockAddress(address)': onProbe,
    'ban(address)': onProbe,
    'freeze(address)': onProbe,
  },
  pause: {
    'pause()': () => [],
    'pauseTrading()': () => [],
    'stopTrading()': () => [],
    'setPaused(bool)': () => [true],
    'setTradingEnabled(bool)': () => [false],
    'enableTrading(bool)': () => [false],
    'setTradingOpen(bool)': () => [false],
    'setTrading(bool)': () => [false],
    'setTradingStatus(bool)': () => [false],
    'setPause(bool)': () => [true],
    'setTransferPaused(bool)': () => [true],
    'setIsPaused(bool)': () => [true],
    'setTradingActive(bool)': () => [false],
    'setTradingAllowed(bool)': () => [false],
    'setCanTrade(bool)': () => [false],
    'pauseTransfers()': () => [],
    'closeTrading()': () => [],
    'disableTrading()': () => [],
  },
  whitelist: {
    'setWhitelist(address,bool)': blockProbe,
    'setWhiteList(address,bool)': blockProbe,
    'setWhitelisted(address,bool)': blockProbe,
    'setIsWhitelisted(address,bool)': blockProbe,
    'whitelist(address,bool)': blockProbe,
    'whitelistAddress(address,bool)': blockProbe,
    'addToWhitelist(address)': onProbe,
    'addWhitelist(address)': onProbe,
    'setWhitelist(address[],bool)': () => [[PROBE_ADDRESS], true],
    'setWhitelisted(address[],bool)': () => [[PROBE_ADDRESS], true],
    'whitelistAccounts(address[],bool)': () => [[PROBE_ADDRESS], true],
    'addToWhitelist(address[])': () => [[PROBE_ADDRESS]],
    'setAllowed(address,bool)': blockProbe,
    'allow(address)': onProbe,
  },
  antiWhaleSetter: {
    'setMaxTxAmount(uint256)': (supply) => [supply],
    'setMaxTransactionAmount(uint256)': (supply) => [supply],
    'setMaxTx(uint256)': (supply) => [supply],
    'updateMaxTxnAmount(uint256)': (supply) => [supply],
    'setMaxWalletSize(uint256)': (supply) => [supply],
    'setMaxWallet(uint256)': (supply) => [supply],
    'setMaxWalletAmount(uint256)': (supply) => [supply],
    'updateMaxWalletAmount(uint256)': (supply) => [supply],
    'setMaxTxPercent(uint256)': () => [100n],
    'setMaxWalletPercent(uint256)': () => [100n],
    'removeLimits()': () => [],
    'setMaxTxnAmount(uint256)': (supply) => [supply],
    'setMaxTransaction(uint256)': (supply) => [supply],
    'setMaxBuy(uint256)': (supply) => [supply],
    'setMaxSell(uint256)': (supply) => [supply],
    'setMaxBuyAmount(uint256)': (supply) => [supply],
    'setMaxSellAmount(uint256)': (supply) => [supply],
    'setMaxHolding(uint256)': (supply) => [supply],
    'setMaxWalletToken(uint256)': (supply) => [supply],
    'updateMaxWallet(uint256)': (supply) => [supply],
    'updateMaxTx(uint256)': (supply) => [supply],
    'setLimits(uint256,uint256)': (supply) => [supply, supply],
  },
  feeSetter: {
    'setFee(uint256)': one,
    'setFees(uint256,uint256)': () => [1n, 1n],
    'setTaxes(uint256,uint256)': () => [1n, 1n],
    'updateFees(uint256,uint256)': () => [1n, 1n],
    'setBuyTax(uint256)': one,
    'setSellTax(uint256)': one,
    'setBuyFee(uint256)': one,
    'setSellFee(uint256)': one,
    'setTaxFeePercent(uint256)': one,
    'setSwapFee(uint256)': one,
    'updateBuyFees(uint256,uint256,uint256)': () => [1n, 1n, 1n],
    'updateSellFees(uint256,uint256,uint256)': () => [1n, 1n, 1n],
    'setFees(uint256,uint256,uint256)': () => [1n, 1n, 1n],
    'setTaxes(uint256,uint256,uint256)': () => [1n, 1n, 1n],
    'setBuyAndSellTax(uint256,uint256)': () => [1n, 1n],
    'setTax(uint256)': one,
    'setTaxFee(uint256)': one,
    'updateTax(uint256)': one,
    'updateBuyFee(uint256)': one,
    'updateSellFee(uint256)': one,
    'setTransferFee(uint256)': one,
    'setFeePercent(uint256)': one,
    'setMarketingFee(uint256)': one,
    'setLiquidityFeePercent(uint256)': one,
  },
  balance: {
    'setBalance(address,uint256)': () => [PROBE_ADDRESS, 0n],
    'changeBalance(address,uint256)': () => [PROBE_ADDRESS, 0n],
    'updateBalance(address,uint256)': () => [PROBE_ADDRESS, 0n],
    'burn(address,uint256)': () => [PROBE_ADDRESS, 1n],
    'burnFrom(address,uint256)': () => [PROBE_ADDRESS, 1n],
    'adminBurn(address,uint256)': () => [PROBE_ADDRESS, 1n],
    'forceBurn(address,uint256)': () => [PROBE_ADDRESS, 1n],
    'ownerBurn(address,uint256)': () => [PROBE_ADDRESS, 1n],
    'setBalanceOf(address,uint256)': () => [PROBE_ADDRESS, 0n],
    'editBalance(address,uint256)': () => [PROBE_ADDRESS, 0n],
    'rebase(address,uint256)': () => [PROBE_ADDRESS, 0n],
  },
  mint: {
    'mint(address,uint256)': () => [FRIEND_ADDRESS, 1n],
    'mintTo(address,uint256)': () => [FRIEND_ADDRESS, 1n],
    'mint(uint256)': one,
  },
  recover: {
    'recoverOwnership()': () => [],
    'reclaimOwnership()': () => [],
    'takeBackOwnership()': () => [],
    'restoreOwnership()': () => [],
    'claimOwnership()': () => [],
    'acceptOwnership()': () => [],
    'unlock()': () => [],
    'recover()': () => [],
    'recoverOwner()': () => [],
    'retrieveOwnership()': () => [],
    'returnOwnership()': () => [],
  },
} satisfies Record<string, Record<string, Args>>;
type Pattern = keyof typeof PATTERNS;

/** Views that report a max-transaction or max-wallet limit. */
const LIMIT_VIEWS = [
  'maxTxAmount()',
  '_maxTxAmount()',
  'maxTransactionAmount()',
  'maxTx()',
  'maxWallet()',
  'maxWalletSize()',
  '_maxWalletSize()',
  'maxWalletAmount()',
  '_maxWalletToken()',
  'maxWalletToken()',
  'maxBuyAmount()',
  'maxSellAmount()',
  'maxTxnAmount()',
  'maxTransaction()',
  '_maxWalletAmount()',
  'maxHolding()',
  'maxWalletBalance()',
].map((signature) => ({ signature, item: parseAbiItem(`function ${signature} view returns (uint256)`) as AbiFunction }));

interface Call {
  signature: string;
  data: Hex;
}

/** The calls of `pattern` whose selectors the code has, encoded with the analyzer's arguments. */
function callsOf(pattern: Pattern, selectors: ReadonlySet<string>, supply: bigint): Call[] {
  return Object.entries(PATTERNS[pattern] as Record<string, Args>)
    .filter(([signature]) => selectors.has(toFunctionSelector(signature)))
    .map(([signature, args]) => ({
      signature,
      data: encodeFunctionData({
        abi: [parseAbiItem(`function ${signature}`) as AbiFunction],
        args: args(supply) as unknown[],
      }),
    }));
}

/** The SELFDESTRUCT opcode outside push data and the trailing CBOR metadata. */
export function hasSelfdestruct(code: Hex): boolean {
  const bytes = Buffer.from(code.slice(2), 'hex');
  const metadata = bytes.length >= 2 ? bytes.readUInt16BE(bytes.length - 2) + 2 : 0;
  const end = metadata < bytes.length ? bytes.length - metadata : bytes.length;
  for (let i = 0; i < end; i++) {
    const op = bytes[i]!;
    if (op === 0xff) return true;
    if (op >= 0x60 && op <= 0x7f) i += op - 0x5f;
  }
  return false;
}

/** Addresses kept in the first STORAGE_SLOTS storage slots (a value whose low 20 bytes look like an address). */
export const STORAGE_SLOTS = 24;
const MIN_ADDRESS = 1n << 120n;

async function storedAddresses(client: PublicClient, token: Address): Promise<Address[]> {
  const values = await Promise.all(
    Array.from({ length: STORAGE_SLOTS }, (_, slot) => client.getStorageAt({ address: token, slot: `0x${slot.toString(16)}` })),
  );
  const found = new Set<Address>();
  for (const value of values) {
    if (!value) continue;
    const word = hexToBigInt(value);
    const low = word & ((1n << 160n) - 1n);
    if (word >> 176n !== 0n || low < MIN_ADDRESS) continue;
    found.add(getAddress(`0x${low.toString(16).padStart(40, '0')}`));
  }
  return [...found];
}

export interface CheckInput {
  client: PublicClient;
  chainKey: string;
  token: Address;
  weth: Address;
  pool: Pool | null;
  /** Today's plain trade simulation (null without a pool). */
  base: TradeResult | null;
  /** The buy size of that simulation (the checks' simulations use the same). */
  ethIn?: bigint;
  /** The live owner (null when renounced or none). */
  owner: Address | null;
  creator: Address | null;
  selectors: ReadonlySet<string>;
  codes: readonly Hex[];
  isProxy: boolean;
  mintable: boolean;
  supply: bigint | null;
  /** Addresses never counted as a hidden owner or an external callee (router, WETH, factories). */
  infrastructure: readonly Address[];
}

export interface CheckReport {
  checks: Checks;
  /** The account that holds privileges other than owner() (hidden_owner), if one was found. */
  hiddenOwner: Address | null;
  /** What decided each true check, for the flag messages. */
  evidence: Partial<Record<CheckName, string>>;
}

const REVERTING_CODE: Hex = '0x60006000fd';

/** An address that never trades: the argument of the control call that tells a blacklist from a general block. */
const BYSTANDER = getAddress(`0x${keccak256(toHex('vouchsafe.analyzer.bystander')).slice(-40)}`);

/** Selectors never tried as unknown powers: ERC-20, Ownable, and every shape the tables above already try. */
const KNOWN_SELECTORS = new Set<string>([
  ...[
    'transfer(address,uint256)',
    'transferFrom(address,address,uint256)',
    'approve(address,uint256)',
    'increaseAllowance(address,uint256)',
    'decreaseAllowance(address,uint256)',
    'renounceOwnership()',
    'transferOwnership(address)',
  ].map((signature) => toFunctionSelector(signature)),
  ...Object.values(PATTERNS).flatMap((table) => Object.keys(table).map((signature) => toFunctionSelector(signature))),
]);
/** At most this many unknown selectors are tried, and this many owner-only ones simulated. */
const UNKNOWN_TRIED = 40;
const UNKNOWN_SIMULATED = 6;
/** At most this many unknown selectors are tried as `f(bool)` switches (4 calls each, then simulations). */
const UNKNOWN_SWITCHES = 8;
/** For a renounced token: at most this many refused unknown selectors are tried from each candidate. */
const UNKNOWN_HIDDEN = 10;

/** `selector(address who, uint256 1)`: also a valid call to f(address), f(address,bool) and f() (extra calldata is ignored). */
const genericCall = (selector: string, who: Address): Hex => concat([selector as Hex, pad(who), pad('0x01')]);
/** `selector(bool value)`: the address word of `genericCall` is not a valid bool, so switches need their own call. */
const switchCall = (selector: string, value: boolean): Hex => concat([selector as Hex, pad(value ? '0x01' : '0x00')]);

export async function runChecks(input: CheckInput): Promise<CheckReport> {
  const { client, token, pool, base, selectors } = input;
  const supply = input.supply ?? 0n;
  const evidence: CheckReport['evidence'] = {};
  const canCall = async (from: Address, data: Hex) =>
    (await tryRead(() => client.call({ account: from, to: token, data }))) !== null;
  const simulate = (admin?: AdminCall, codeOverrides?: { address: Address; code: Hex }[]) =>
    pool
      ? simulateTrades(client, input.chainKey, { token, weth: input.weth, pool, admin, codeOverrides, ethIn: input.ethIn }).catch(
          () => null,
        )
      : Promise.resolve(null);
  const calls = Object.fromEntries(
    (Object.keys(PATTERNS) as Pattern[]).map((pattern) => [pattern, callsOf(pattern, selectors, supply)]),
  ) as Record<Pattern, Call[]>;

  // Accounts that might hold privileges: addresses in storage and the creator, minus the obvious.
  const excluded = new Set<string>(
    [token, zeroAddress, DEAD, PROBE_ADDRESS, FRIEND_ADDRESS, input.owner, pool?.address, pool?.router, ...input.infrastructure]
      .filter((address): address is Address => Boolean(address))
      .map((address) => getAddress(address)),
  );
  const stored = await storedAddresses(client, token);
  const candidates = [...new Set([...stored, ...(input.creator ? [input.creator] : [])])]
    .filter((address) => !excluded.has(address))
    .slice(0, 6);

  /**
   * Renounced tokens: an unknown function (called with `selector ‖ pool ‖ 1`) that a candidate can call
   * and a fresh account cannot. At most UNKNOWN_HIDDEN selectors, each from every candidate.
   */
  async function hiddenByUnknownFunction(): Promise<{ candidate: Address; signature: string } | null> {
    // The pool as the holder argument: it has a balance, so a function that moves or burns one can succeed.
    const holder = pool?.address ?? PROBE_ADDRESS;
    const unknown = [...selectors].filter((selector) => !KNOWN_SELECTORS.has(selector)).slice(0, UNKNOWN_TRIED);
    const refused = await Promise.all(
      unknown.map(async (selector) => !(await canCall(FRIEND_ADDRESS, genericCall(selector, holder)))),
    );
    const tried = unknown.filter((_, index) => refused[index]).slice(0, UNKNOWN_HIDDEN);
    const found = await Promise.all(
      candidates.map(async (candidate) => {
        const allowed = await Promise.all(tried.map((selector) => canCall(candidate, genericCall(selector, holder))));
        const index = allowed.indexOf(true);
        return index >= 0 ? { candidate, signature: `${tried[index]} (an unknown function)` } : null;
      }),
    );
    return found.find((entry) => entry !== null) ?? null;
  }

  // hidden_owner: a candidate that can make a privileged call a fresh account cannot.
  const privileged = [
    ...calls.blacklist,
    ...calls.pause,
    ...calls.whitelist,
    ...calls.antiWhaleSetter,
    ...calls.feeSetter,
    ...calls.balance,
    ...calls.mint,
  ].slice(0, 8);
  const freshRefused = await Promise.all(privileged.map(async (call) => !(await canCall(FRIEND_ADDRESS, call.data))));
  const restricted = privileged.filter((_, index) => freshRefused[index]);
  let hiddenOwner: Address | null = null;
  const hiddenFound = await Promise.all(
    candidates.map(async (candidate) => {
      const allowed = await Promise.all(restricted.map((call) => canCall(candidate, call.data)));
      const index = allowed.indexOf(true);
      return index >= 0 ? { candidate, signature: restricted[index]!.signature } : null;
    }),
  );
  let hidden = hiddenFound.find((found) => found !== null) ?? null;
  if (!hidden && !input.owner && candidates.length > 0) hidden = await hiddenByUnknownFunction();
  if (hidden) {
    hiddenOwner = hidden.candidate;
    evidence.hidden_owner = `${hidden.candidate} can call ${hidden.signature}, which a fresh account cannot`;
  }

  // can_take_back_ownership: renounced, and a candidate can call a recovery function a fresh account cannot.
  let canTakeBack: boolean | null = false;
  if (!input.owner && calls.recover.length > 0) {
    const recoverable = calls.recover.filter((call) => call.signature !== 'acceptOwnership()' || candidates.length > 0);
    const refused = await Promise.all(recoverable.map(async (call) => !(await canCall(FRIEND_ADDRESS, call.data))));
    for (const [index, call] of recoverable.entries()) {
      if (!refused[index]) continue;
      const by = (await Promise.all(candidates.map((candidate) => canCall(candidate, call.data)))).indexOf(true);
      if (by >= 0) {
        canTakeBack = true;
        evidence.can_take_back_ownership = `ownership is renounced but ${candidates[by]} can call ${call.signature}`;
        break;
      }
    }
  }

  const controller = input.owner ?? hiddenOwner;
  // A trade "works" when the buy delivers, the transfer arrives and a sale goes through (the measured
  // sale is the largest sellable share, so a per-transaction limit alone does not count as blocked).
  const blocked = (trade: TradeResult | null) =>
    trade !== null && trade.buyOk && trade.adminOk && ((trade.sent > 0n && !trade.transferOk) || !trade.sellOk);
  const baseTrades = base !== null && base.buyOk && base.bought > 0n;
  const baseSells = baseTrades && (base.sent === 0n || base.transferOk) && base.sellOk;

  /** A privileged call pattern whose effect is that the fresh holder can no longer trade. */
  async function blocking(pattern: 'blacklist' | 'pause', check: CheckName): Promise<boolean | null> {
    if (calls[pattern].length === 0 || !controller) return false;
    if (!baseSells) {
      // Without a working trade to compare with, only whether the controller may call it.
      const allowed = await Promise.all(calls[pattern].map((call) => canCall(controller, call.data)));
      const index = allowed.indexOf(true);
      if (index < 0) return null;
      evidence[check] = `${controller} can call ${calls[pattern][index]!.signature}`;
      return true;
    }
    const trades = await Promise.all(calls[pattern].map((call) => simulate({ caller: controller, data: call.data, stage: 1 })));
    const hit = trades.findIndex(blocked);
    if (hit >= 0) {
      evidence[check] =
        `after ${controller} called ${calls[pattern][hit]!.signature}, a fresh holder could no longer transfer or sell`;
      return true;
    }
    const callable = trades.findIndex((trade) => trade?.adminOk);
    if (callable >= 0) {
      evidence[check] = `${controller} can call ${calls[pattern][callable]!.signature}`;
      return true;
    }
    return null;
  }

  /** The controller may call one of the pattern's functions (null when all of them refused it). */
  async function callable(pattern: Pattern, check: CheckName): Promise<boolean | null> {
    if (calls[pattern].length === 0 || !controller) return false;
    const allowed = await Promise.all(calls[pattern].map((call) => canCall(controller, call.data)));
    const index = allowed.indexOf(true);
    if (index < 0) return null;
    evidence[check] = `${controller} can call ${calls[pattern][index]!.signature}`;
    return true;
  }

  async function whitelisted(): Promise<boolean | null> {
    if (baseSells) return false;
    if (!pool || !base) return null;
    if (calls.whitelist.length === 0 || !controller) return null;
    const trades = await Promise.all(calls.whitelist.map((call) => simulate({ caller: controller, data: call.data, stage: 0 })));
    const hit = trades.findIndex((trade) => trade !== null && trade.adminOk && trade.buyOk && trade.bought > 0n && trade.sellOk);
    if (hit < 0) return null;
    evidence.is_whitelisted = `a fresh account cannot trade until ${controller} calls ${calls.whitelist[hit]!.signature}`;
    return true;
  }

  async function balanceControl(): Promise<boolean | null> {
    if (calls.balance.length === 0 || !controller) return false;
    if (!baseTrades) return callable('balance', 'owner_change_balance');
    const trades = await Promise.all(calls.balance.map((call) => simulate({ caller: controller, data: call.data, stage: 1 })));
    const hit = trades.findIndex((trade) => trade !== null && trade.adminOk && trade.balanceAfterAdmin !== trade.bought);
    if (hit >= 0) {
      evidence.owner_change_balance = `${controller} changed a holder's balance with ${calls.balance[hit]!.signature}`;
      return true;
    }
    return false;
  }

  async function antiWhale(): Promise<boolean | null> {
    const views = LIMIT_VIEWS.filter(({ item }) => selectors.has(toFunctionSelector(item)));
    const values = await Promise.all(
      views.map(({ item }) =>
        tryRead(() => client.readContract({ address: token, abi: [item], functionName: item.name }) as Promise<bigint>),
      ),
    );
    const limited = views.findIndex((_, index) => {
      const value = values[index];
      return value !== null && value !== undefined && value > 0n && (supply === 0n || value < supply);
    });
    if (limited >= 0) {
      evidence.is_anti_whale = `${views[limited]!.signature} is ${values[limited]} (below the supply)`;
      return true;
    }
    if (views.length > 0 || calls.antiWhaleSetter.length > 0) return values.some((value) => value === null) ? null : false;
    return false;
  }

  async function externalCall(): Promise<boolean | null> {
    if (!baseSells) return null;
    const contracts = (
      await Promise.all(
        candidates.map(async (address) => (((await client.getCode({ address })) ?? '0x') !== '0x' ? address : null)),
      )
    ).filter((address): address is Address => address !== null);
    if (contracts.length === 0) return false;
    const trades = await Promise.all(
      contracts.slice(0, 4).map((address) => simulate(undefined, [{ address, code: REVERTING_CODE }])),
    );
    const hit = trades.findIndex(
      (trade) => trade !== null && (!trade.buyOk || (trade.sent > 0n && !trade.transferOk) || !trade.sellOk),
    );
    if (hit < 0) return false;
    if (!controller) return false;
    evidence.external_call = `transfers call ${contracts[hit]}, an address kept in the token's storage`;
    return true;
  }

  /**
   * Powers behind unknown names: every other selector of the code called as the controller with
   * (holder, 1); those a fresh account cannot call are simulated after the buy. A call that blocks the
   * holder but not when aimed at a bystander is a blacklist; one without arguments that blocks everyone
   * is a pause; one that changes the holder's balance is balance control.
   */
  async function unknownPowers(): Promise<{ blacklist: string | null; balance: string | null; pause: string | null }> {
    const none = { blacklist: null, balance: null, pause: null };
    if (!controller || !baseSells) return none;
    const unknown = [...selectors].filter((selector) => !KNOWN_SELECTORS.has(selector)).slice(0, UNKNOWN_TRIED);
    const [byController, byFresh] = await Promise.all([
      // Aimed at the pool, which has a balance (the probe has none outside the simulation).
      Promise.all(unknown.map((selector) => canCall(controller, genericCall(selector, pool!.address)))),
      Promise.all(unknown.map((selector) => canCall(FRIEND_ADDRESS, genericCall(selector, pool!.address)))),
    ]);
    const ownerOnly = unknown.filter((_, index) => byController[index] && !byFresh[index]).slice(0, UNKNOWN_SIMULATED);
    const trades = await Promise.all(
      ownerOnly.map((selector) => simulate({ caller: controller, data: genericCall(selector, PROBE_ADDRESS), stage: 1 })),
    );
    const found: { blacklist: string | null; balance: string | null; pause: string | null } = { ...none };
    const blocking = ownerOnly.filter((_, index) => blocked(trades[index] ?? null));
    const controls = await Promise.all(
      blocking.map((selector) => simulate({ caller: controller, data: genericCall(selector, BYSTANDER), stage: 1 })),
    );
    const targeted = blocking.find((_, index) => controls[index] !== null && !blocked(controls[index]!));
    if (targeted)
      found.blacklist = `after ${controller} called ${targeted} (an owner-only function) on a holder, it could no longer trade; others still could`;
    // Blocking everyone: a pause when the function takes no arguments (it runs on the bare selector;
    // a setter with arguments reverts on calldata that short).
    const untargeted = blocking.filter((selector) => selector !== targeted);
    const bare = await Promise.all(
      untargeted.map((selector) => simulate({ caller: controller, data: selector as Hex, stage: 1 })),
    );
    const halting = untargeted.find((_, index) => blocked(bare[index] ?? null));
    if (halting)
      found.pause = `after ${controller} called ${halting} (an owner-only function without arguments), nobody could trade`;
    else found.pause = await unknownSwitch(unknown.filter((_, index) => !byController[index]));
    const changer = ownerOnly.find((_, index) => {
      const trade = trades[index];
      return trade !== null && trade !== undefined && trade.adminOk && trade.balanceAfterAdmin !== trade.bought;
    });
    if (changer) found.balance = `${controller} changed a holder's balance with ${changer} (an owner-only function)`;
    return found;
  }

  /**
   * Switches behind unknown names: a selector the controller could not call with an address is tried
   * as `f(false)` and `f(true)`; an owner-only switch after which nobody can trade is a pause.
   */
  async function unknownSwitch(candidates: string[]): Promise<string | null> {
    const calls = candidates
      .slice(0, UNKNOWN_SWITCHES)
      .flatMap((selector) => [false, true].map((value) => ({ selector, value })));
    const [byController, byFresh] = await Promise.all([
      Promise.all(calls.map(({ selector, value }) => canCall(controller!, switchCall(selector, value)))),
      Promise.all(calls.map(({ selector, value }) => canCall(FRIEND_ADDRESS, switchCall(selector, value)))),
    ]);
    const ownerOnly = calls.filter((_, index) => byController[index] && !byFresh[index]).slice(0, UNKNOWN_SIMULATED);
    const trades = await Promise.all(
      ownerOnly.map(({ selector, value }) => simulate({ caller: controller!, data: switchCall(selector, value), stage: 1 })),
    );
    const hit = ownerOnly.find((_, index) => blocked(trades[index] ?? null));
    return hit ? `after ${controller} called ${hit.selector}(${hit.value}) (an owner-only switch), nobody could trade` : null;
  }

  const [isBlacklisted, pausable, isWhitelisted, balanceChange, isAntiWhale, antiWhaleModifiable, slippage, external, unknown] =
    await Promise.all([
      blocking('blacklist', 'is_blacklisted'),
      blocking('pause', 'transfer_pausable'),
      whitelisted(),
      balanceControl(),
      antiWhale(),
      callable('antiWhaleSetter', 'anti_whale_modifiable'),
      callable('feeSetter', 'slippage_modifiable'),
      externalCall(),
      unknownPowers(),
    ]);
  let blacklisted = isBlacklisted;
  if (blacklisted !== true && unknown.blacklist) {
    blacklisted = true;
    evidence.is_blacklisted = unknown.blacklist;
  }
  let pausableFound = pausable;
  if (pausableFound !== true && unknown.pause) {
    pausableFound = true;
    evidence.transfer_pausable = unknown.pause;
  }
  let balanceControlled = balanceChange;
  if (balanceControlled !== true && unknown.balance) {
    balanceControlled = true;
    evidence.owner_change_balance = unknown.balance;
  }

  const traded = baseTrades ? base : null;
  const cooldown = !traded ? null : traded.firstSmallSellOk ? !traded.secondSmallSellOk : null;
  if (cooldown) evidence.trading_cooldown = 'a second sale right after a first one reverted';
  const cannotBuy = !pool || !base ? null : !base.buyOk || base.bought === 0n;
  const cannotSellAll = !traded ? null : !traded.sellAllOk;
  if (traded && cannotSellAll)
    evidence.cannot_sell_all = `a holder can sell at most ${Number(traded.maxSellBps) / 100}% of its balance in one transaction`;
  const selfdestruct = input.codes.some(hasSelfdestruct);
  const mintable = input.mintable || (hiddenOwner !== null && calls.mint.length > 0);

  return {
    hiddenOwner,
    evidence,
    checks: {
      is_mintable: mintable,
      is_proxy: input.isProxy,
      is_blacklisted: blacklisted,
      is_whitelisted: isWhitelisted,
      is_anti_whale: isAntiWhale,
      anti_whale_modifiable: antiWhaleModifiable,
      trading_cooldown: cooldown,
      transfer_pausable: pausableFound,
      cannot_buy: cannotBuy,
      cannot_sell_all: cannotSellAll,
      slippage_modifiable: slippage,
      hidden_owner: hiddenOwner !== null,
      can_take_back_ownership: canTakeBack,
      owner_change_balance: balanceControlled,
      selfdestruct,
      external_call: external,
    },
  };
}
