import { describe, expect, it } from 'vitest';
import { CHECK_NAMES, type Checks } from './checks';
import { FOREVER_DAYS, grade, ratingFor, type Findings } from './grade';

const allFalse = (): Checks => Object.fromEntries(CHECK_NAMES.map((name) => [name, false])) as Checks;

const clean = (): Findings => ({
  symbol: 'TKN',
  sellFailsAt: [],
  sellFailure: null,
  buyFailure: null,
  noPool: false,
  recheckUnavailable: false,
  fees: { buy: 0, sell: 0, transfer: 0 },
  owner: { address: null, renounced: true, safe: null },
  capabilities: {
    mint: [],
    mintConfirmed: false,
    pause: [],
    blacklist: [],
    feeSetter: [],
    buyback: [],
    buybackConfirmed: false,
    upgrade: [],
  },
  proxy: { implementation: null, admin: null, beacon: null },
  liquidity: { pool: '0xpool', burnedShare: 1, lockedShare: 0, unlockInDays: null, v3: false },
  checks: allFalse(),
  evidence: {},
  topHolders: [],
});

describe('the analyzer rubric', () => {
  it('grades a renounced token with burned liquidity and no taxes A, low, locked forever', () => {
    const result = grade(clean());
    expect(result).toMatchObject({
      score: 0,
      rating: 'A',
      riskLevel: 'low',
      isHoneypot: false,
      isLocked: true,
      lockDays: FOREVER_DAYS,
    });
    expect(result.factors).toEqual([]);
  });

  it('grades any honeypot F and critical, a delayed one too', () => {
    expect(grade({ ...clean(), sellFailsAt: [0] })).toMatchObject({ rating: 'F', riskLevel: 'critical', isHoneypot: true });
    const delayed = grade({ ...clean(), sellFailsAt: [7] });
    expect(delayed).toMatchObject({ rating: 'F', isHoneypot: true });
    expect(delayed.factors[0]).toMatch(/^delayed_honeypot: .*7 days ahead/);
  });

  it('maps points to ratings at the documented boundaries', () => {
    expect([0, 10, 11, 25, 26, 45, 46, 69, 70, 100].map(ratingFor)).toEqual(['A', 'A', 'B', 'B', 'C', 'C', 'D', 'D', 'F', 'F']);
  });

  it('steps taxes: 7% sell is 10 points, 1% transfer 5', () => {
    const result = grade({ ...clean(), fees: { buy: 3, sell: 7, transfer: 1 } });
    expect(result.score).toBe(15);
    expect(result.factors.map((factor) => factor.split(':')[0])).toEqual(['high_tax', 'transfer_tax']);
  });

  it('halves owner powers under a 2-of-3 Safe, not under a 1-of-1', () => {
    const owned = (threshold: number): Findings => ({
      ...clean(),
      owner: { address: '0xsafe', renounced: false, safe: { threshold, owners: 3 } },
      capabilities: { ...clean().capabilities, mint: ['mint(address,uint256)'] },
    });
    expect(grade(owned(2))).toMatchObject({ score: 5 + 12, isMultisig: true });
    const single = grade(owned(1));
    expect(single).toMatchObject({ score: 10 + 25, isMultisig: false });
    expect(single.factors).toContain('single_key_safe: the owner is a 1-of-3 Safe');
  });

  it('locks by share: 95% burned or locked is locked; a short lock costs points', () => {
    const at = (burnedShare: number, lockedShare: number, unlockInDays: number | null) =>
      grade({ ...clean(), liquidity: { pool: '0xpool', burnedShare, lockedShare, unlockInDays, v3: false } });
    expect(at(0.5, 0.44, 100)).toMatchObject({ isLocked: false, lockDays: 0, score: 20 });
    expect(at(0.001, 0.999, 90)).toMatchObject({ isLocked: true, lockDays: 90, score: 0 });
    expect(at(0, 1, 12)).toMatchObject({ isLocked: true, lockDays: 12, score: 10 });
  });

  it('is deterministic', () => {
    const findings = { ...clean(), fees: { buy: 12.5, sell: 30, transfer: 0 } };
    expect(grade(findings)).toEqual(grade(structuredClone(findings)));
  });

  it('caps the grade at D for a blacklist, pause, whitelist, hidden owner, reclaimable ownership or balance control', () => {
    for (const check of [
      'is_blacklisted',
      'transfer_pausable',
      'is_whitelisted',
      'hidden_owner',
      'can_take_back_ownership',
      'owner_change_balance',
    ] as const) {
      const findings = clean();
      findings.checks[check] = true;
      const result = grade(findings);
      expect(['D', 'F'], check).toContain(result.rating);
      expect(result.flags.map((flag) => flag.code)).toContain(check);
    }
  });

  it('grades cannot_sell_all and a sell tax above 50% F like a honeypot', () => {
    const limited = clean();
    limited.checks.cannot_sell_all = true;
    expect(grade(limited).rating).toBe('F');
    const taxed = clean();
    taxed.fees.sell = 60;
    const result = grade(taxed);
    expect(result.rating).toBe('F');
    expect(result.flags.find((flag) => flag.code === 'high_sell_tax')?.severity).toBe('critical');
  });

  it('caps at C when one holder other than a pair, locker or burn address holds more than half', () => {
    const whale = clean();
    whale.topHolders = [
      { address: '0x0000000000000000000000000000000000000001', percent: 90, is_contract: false, is_locked: false, tag: null },
    ];
    expect(['C', 'D', 'F']).toContain(grade(whale).rating);
    const pair = clean();
    pair.topHolders = [
      { address: '0x0000000000000000000000000000000000000001', percent: 90, is_contract: true, is_locked: false, tag: 'pair' },
    ];
    expect(grade(pair).rating).toBe('A');
  });

  it('answers no flags for a clean token whose checks are all false', () => {
    expect(grade(clean()).flags).toEqual([]);
  });
});
