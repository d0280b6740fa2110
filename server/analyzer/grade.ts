import type { CheckName, Checks } from './checks';
import type { TopHolder } from './read-holders';

// The analyzer's rubric (docs/analyzer.md): findings -> risk points -> safety_rating and risk_level.
// Deterministic: the same findings always give the same grade, factors and summary.

export interface Findings {
  symbol: string | null;
  /** Selling failed (or paid nothing) at these simulated times: 0 = now, else days ahead. */
  sellFailsAt: number[];
  sellFailure: string | null;
  buyFailure: string | null;
  /** The +1/+7 day simulations failed at the node (no block overrides there). */
  recheckUnavailable: boolean;
  /** No pool with the wrapped native token was found, so nothing could be traded. */
  noPool: boolean;
  fees: { buy: number | null; sell: number | null; transfer: number | null };
  owner: {
    address: string | null;
    renounced: boolean;
    /** A Safe-style owner: its threshold and number of owners. */
    safe: { threshold: number; owners: number } | null;
  };
  capabilities: {
    mint: string[];
    mintConfirmed: boolean;
    pause: string[];
    blacklist: string[];
    feeSetter: string[];
    buyback: string[];
    /** The owner took tokens from the pool with buyback(address,uint256) in a simulation. */
    buybackConfirmed: boolean;
    upgrade: string[];
  };
  proxy: { implementation: string | null; admin: string | null; beacon: string | null };
  liquidity: {
    pool: string | null;
    /** Share of the LP supply burned (0x0, 0x…dEaD) and held by known lockers, 0-1. */
    burnedShare: number;
    lockedShare: number;
    /** Whole days until the earliest known unlock of the locked share; null when none is locked. */
    unlockInDays: number | null;
    /** The main pool is Uniswap V3: shares are of its in-range liquidity (position NFTs). */
    v3: boolean;
  };
  /** The GoPlus-style checks (checks.ts); null = undecided. */
  checks: Checks;
  /** What decided each true check. */
  evidence: Partial<Record<CheckName, string>>;
  /** The largest holders (null when the Transfer history could not be read in full). */
  topHolders: TopHolder[] | null;
}

export type Severity = 'info' | 'low' | 'medium' | 'high' | 'critical';
export type FlagCode =
  CheckName | 'honeypot' | 'high_sell_tax' | 'holder_concentration' | 'unlocked_liquidity' | 'unverified_owner_privileges';
export interface Flag {
  code: FlagCode;
  severity: Severity;
  message: string;
}

/** Per check: the flag's severity and message when true, the risk points it adds (0: an older factor already counts it), and the grade it caps at. */
export const CHECK_RUBRIC: Record<CheckName, { severity: Severity; points: number; cap?: Rating; message: string }> = {
  is_mintable: { severity: 'medium', points: 0, message: 'new tokens can be minted' },
  is_proxy: { severity: 'medium', points: 0, message: 'the contract is upgradeable; its code can be replaced' },
  is_blacklisted: { severity: 'high', points: 0, cap: 'D', message: 'a privileged account can block addresses from trading' },
  is_whitelisted: { severity: 'high', points: 20, cap: 'D', message: 'only addresses on a list may trade' },
  is_anti_whale: { severity: 'low', points: 5, message: 'a max-transaction or max-wallet limit applies' },
  anti_whale_modifiable: {
    severity: 'medium',
    points: 5,
    message: 'a privileged account can change the max-transaction or max-wallet limit',
  },
  trading_cooldown: { severity: 'low', points: 5, message: 'a holder must wait between sales' },
  transfer_pausable: { severity: 'high', points: 0, cap: 'D', message: 'a privileged account can pause transfers' },
  cannot_buy: { severity: 'critical', points: 0, message: 'a fresh account cannot buy' },
  cannot_sell_all: { severity: 'critical', points: 60, cap: 'F', message: 'a holder cannot sell its whole balance' },
  slippage_modifiable: { severity: 'medium', points: 0, message: 'a privileged account can change the taxes' },
  hidden_owner: { severity: 'high', points: 20, cap: 'D', message: 'an account other than owner() holds privileges' },
  can_take_back_ownership: { severity: 'high', points: 20, cap: 'D', message: 'renounced ownership can be taken back' },
  owner_change_balance: {
    severity: 'critical',
    points: 30,
    cap: 'D',
    message: "a privileged account can change holders' balances",
  },
  selfdestruct: { severity: 'high', points: 20, message: 'the contract can destroy itself (SELFDESTRUCT)' },
  external_call: { severity: 'medium', points: 10, message: 'transfers call an address the owner can change' },
};

/** A sell tax above this many percent grades F, like a honeypot. */
export const MAX_SELL_TAX = 50;
/** One holder other than a pair, locker or burn address above this many percent caps the grade at C. */
export const CONCENTRATION_PERCENT = 50;
const ORDER: Rating[] = ['A', 'B', 'C', 'D', 'F'];
const worse = (a: Rating, b: Rating): Rating => (ORDER.indexOf(a) >= ORDER.indexOf(b) ? a : b);

export type Rating = 'A' | 'B' | 'C' | 'D' | 'F';
export type RiskLevel = 'low' | 'medium' | 'high' | 'critical';

export interface Grade {
  score: number;
  rating: Rating;
  riskLevel: RiskLevel;
  factors: string[];
  isHoneypot: boolean;
  isLocked: boolean;
  lockDays: number;
  isMultisig: boolean;
  summary: string;
  flags: Flag[];
}

/** Share of the LP supply that must be burned or locked for the liquidity to count as locked. */
export const LOCKED_SHARE = 0.95;
/** Burned liquidity never unlocks: reported as this many days (100 years). */
export const FOREVER_DAYS = 36_500;

const pct = (value: number) => `${Number(value.toFixed(2))}%`;

function taxPoints(tax: number): number {
  if (tax >= 50) return 60;
  if (tax >= 20) return 30;
  if (tax >= 10) return 20;
  if (tax >= 5) return 10;
  if (tax > 0.1) return 5;
  return 0;
}

export function ratingFor(score: number): Rating {
  if (score <= 10) return 'A';
  if (score <= 25) return 'B';
  if (score <= 45) return 'C';
  if (score < 70) return 'D';
  return 'F';
}

const LEVEL: Record<Rating, RiskLevel> = { A: 'low', B: 'low', C: 'medium', D: 'high', F: 'critical' };

export function grade(findings: Findings): Grade {
  const factors: string[] = [];
  let score = 0;
  const add = (points: number, factor: string) => {
    score += points;
    factors.push(factor);
  };

  const honeypotNow = findings.sellFailsAt.includes(0);
  const delayed = findings.sellFailsAt.filter((days) => days > 0);
  if (honeypotNow) add(100, `honeypot: selling the token fails${findings.sellFailure ? ` (${findings.sellFailure})` : ''}`);
  else if (delayed.length > 0)
    add(100, `delayed_honeypot: selling works now but fails when simulated ${Math.min(...delayed)} days ahead`);
  if (findings.recheckUnavailable)
    factors.push(
      'recheck_unavailable: the node refused the simulations 1 and 7 days ahead (block overrides); a delayed honeypot would not show',
    );
  if (findings.buyFailure) add(60, `buy_fails: buying through the pool fails (${findings.buyFailure})`);
  if (findings.noPool) add(25, 'no_liquidity_pool: no pool with the wrapped native token; the token cannot be traded there');

  const { buy, sell, transfer } = findings.fees;
  const worst = Math.max(buy ?? 0, sell ?? 0);
  if (worst > 0.1) add(taxPoints(worst), `high_tax: buy tax ${pct(buy ?? 0)}, sell tax ${pct(sell ?? 0)}`);
  if (transfer !== null && transfer > 0.1)
    add(Math.min(taxPoints(transfer), 15), `transfer_tax: ${pct(transfer)} of every transfer`);

  // Owner powers weigh half when a multisig (threshold 2 or more) holds them.
  const safe = findings.owner.safe;
  const multisig = safe !== null && safe.threshold >= 2;
  const ownerWeight = (points: number) => (multisig ? Math.floor(points / 2) : points);
  const controlled = !findings.owner.renounced;
  if (controlled) {
    add(ownerWeight(10), `owner_not_renounced: the contract has an owner (${findings.owner.address})`);
    if (safe && !multisig) factors.push(`single_key_safe: the owner is a ${safe.threshold}-of-${safe.owners} Safe`);
  }
  const caps = findings.capabilities;
  if (caps.mint.length > 0 && (controlled || caps.mintConfirmed))
    add(
      ownerWeight(25),
      `mint_capability: new tokens can be minted (${caps.mint.join(', ')})${caps.mintConfirmed ? ', confirmed by simulation' : ''}`,
    );
  if (caps.pause.length > 0 && controlled) add(ownerWeight(10), `pausable: transfers can be paused (${caps.pause.join(', ')})`);
  if (caps.blacklist.length > 0 && controlled)
    add(ownerWeight(15), `blacklist: addresses can be blocked or allow-listed (${caps.blacklist.join(', ')})`);
  if (caps.feeSetter.length > 0 && controlled)
    add(ownerWeight(10), `modifiable_tax: the owner can change the taxes (${caps.feeSetter.join(', ')})`);
  if (caps.buyback.length > 0)
    add(
      ownerWeight(caps.buybackConfirmed ? 20 : 10),
      `buyback: the contract has a buyback function (${caps.buyback.join(', ')})${caps.buybackConfirmed ? '; the owner can take tokens from the pool, confirmed by simulation' : ''}`,
    );
  const proxy = findings.proxy.implementation ?? findings.proxy.beacon;
  if (proxy || caps.upgrade.length > 0)
    add(
      ownerWeight(20),
      `proxy: upgradeable contract${proxy ? ` (EIP-1967 ${findings.proxy.beacon ? 'beacon' : 'implementation'} ${proxy})` : ''}; its code can be replaced`,
    );

  const { liquidity } = findings;
  const protectedShare = liquidity.burnedShare + liquidity.lockedShare;
  const isLocked = liquidity.pool !== null && protectedShare >= LOCKED_SHARE;
  const permanent = liquidity.burnedShare >= LOCKED_SHARE;
  const lockDays = !isLocked ? 0 : permanent ? FOREVER_DAYS : (liquidity.unlockInDays ?? 0);
  if (liquidity.pool && !isLocked) {
    add(
      20,
      `liquidity_unlocked: only ${pct(protectedShare * 100)} of the ${liquidity.v3 ? "V3 pool's in-range liquidity is" : 'LP tokens are'} burned or locked`,
    );
  } else if (isLocked && !permanent && lockDays < 30) {
    add(10, `short_lock: the liquidity unlocks in ${lockDays} days`);
  }

  // The checks (issue 25): a flag each, points where no older factor counts them, and grade caps.
  const flags: Flag[] = [];
  let cap: Rating = 'A';
  const checks = findings.checks;
  for (const [code, rule] of Object.entries(CHECK_RUBRIC) as [CheckName, (typeof CHECK_RUBRIC)[CheckName]][]) {
    if (checks[code] !== true) continue;
    const evidence = findings.evidence[code];
    const message = `${rule.message}${evidence ? ` (${evidence})` : ''}`;
    flags.push({ code, severity: rule.severity, message });
    if (rule.points > 0) add(rule.points, `${code}: ${message}`);
    if (rule.cap) cap = worse(cap, rule.cap);
  }
  if (sell !== null && sell > 10) {
    flags.push({
      code: 'high_sell_tax',
      severity: sell > MAX_SELL_TAX ? 'critical' : 'medium',
      message: `the sell tax is ${pct(sell)}`,
    });
    if (sell > MAX_SELL_TAX) cap = 'F';
  }
  const whale = (findings.topHolders ?? []).find(
    (holder) =>
      holder.percent > CONCENTRATION_PERCENT && holder.tag !== 'pair' && holder.tag !== 'locker' && holder.tag !== 'burn',
  );
  if (whale) {
    const message = `${whale.address} holds ${pct(whale.percent)} of the supply`;
    flags.push({ code: 'holder_concentration', severity: 'high', message });
    add(10, `holder_concentration: ${message}`);
    cap = worse(cap, 'C');
  }
  const undecided = (Object.keys(checks) as CheckName[]).filter((code) => checks[code] === null);
  if (controlled && undecided.length > 0)
    flags.push({
      code: 'unverified_owner_privileges',
      severity: 'low',
      message: `the owner exists and these checks could not be decided: ${undecided.join(', ')}`,
    });

  const isHoneypot = honeypotNow || delayed.length > 0;
  if (isHoneypot)
    flags.unshift({
      code: 'honeypot',
      severity: 'critical',
      message: factors.find((factor) => /^(delayed_)?honeypot:/.test(factor))!.replace(/^[a-z_]+: /, ''),
    });
  const rating = isHoneypot ? 'F' : worse(ratingFor(score), cap);
  const riskLevel = LEVEL[rating];
  const name = findings.symbol ?? 'The token';
  if (liquidity.pool && !isLocked)
    flags.push({
      code: 'unlocked_liquidity',
      severity: 'medium',
      message: `only ${pct(protectedShare * 100)} of the liquidity is burned or locked`,
    });
  const summary = isHoneypot
    ? `${name} is a ${honeypotNow ? '' : 'delayed '}honeypot: bought tokens cannot be sold${honeypotNow ? '' : ` after ${Math.min(...delayed)} days`}. Rating F.`
    : `${name}: rating ${rating} (${riskLevel} risk, ${score} risk points). Taxes buy ${pct(buy ?? 0)}, sell ${pct(sell ?? 0)}, transfer ${pct(transfer ?? 0)}; ` +
      `${findings.owner.renounced ? 'ownership renounced' : multisig ? `owned by a ${safe!.threshold}-of-${safe!.owners} multisig` : 'owned by one account'}; ` +
      `${isLocked ? (permanent ? 'liquidity burned' : `liquidity locked for ${lockDays} more days`) : liquidity.pool ? 'liquidity not locked' : 'no liquidity pool'}` +
      `${factors.length ? `; ${factors.length} risk factor${factors.length > 1 ? 's' : ''}` : ''}.`;
  return {
    score: Math.min(score, 100),
    rating,
    riskLevel,
    factors,
    isHoneypot,
    isLocked,
    lockDays,
    isMultisig: multisig,
    summary,
    flags,
  };
}
