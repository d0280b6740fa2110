import { describe, expect, it } from 'vitest';
import { personalizedPageRank } from './propagated-trust';
import { computeTrust, TRUST_MAX, type TrustInputs } from './trust-score';

const none: TrustInputs = {
  verified: false,
  tier: 'none',
  publishedSkills: 0,
  receivedAttestations: 0,
  accountAgeMonths: 0,
  connections: 0,
};

describe('computeTrust', () => {
  it('is 0 for a new, unverified agent', () => {
    expect(computeTrust(none).total).toBe(0);
  });

  it.each([
    ['verified', { verified: true }, 20],
    ['entry tier', { tier: 'entry' }, 10],
    ['pro tier', { tier: 'pro' }, 30],
    ['enterprise tier', { tier: 'enterprise' }, 50],
    ['9 skills', { publishedSkills: 9 }, 45],
    ['10 skills (cap)', { publishedSkills: 10 }, 50],
    ['11 skills (capped)', { publishedSkills: 11 }, 50],
    ['9 attestations', { receivedAttestations: 9 }, 90],
    ['10 attestations (cap)', { receivedAttestations: 10 }, 100],
    ['11 attestations (capped)', { receivedAttestations: 11 }, 100],
    ['19 months', { accountAgeMonths: 19 }, 19],
    ['20 months (cap)', { accountAgeMonths: 20 }, 20],
    ['40 months (capped)', { accountAgeMonths: 40 }, 20],
    ['19 connections', { connections: 19 }, 38],
    ['20 connections (cap)', { connections: 20 }, 40],
    ['21 connections (capped)', { connections: 21 }, 40],
  ] as const)('scores %s', (_label, change, expected) => {
    expect(computeTrust({ ...none, ...change }).total).toBe(expected);
  });

  it('reaches exactly the 280 maximum and never more', () => {
    const max = computeTrust({
      verified: true,
      tier: 'enterprise',
      publishedSkills: 99,
      receivedAttestations: 99,
      accountAgeMonths: 99,
      connections: 99,
    });
    expect(max.total).toBe(TRUST_MAX);
    expect(max.total).toBe(280);
  });

  it('groups components into verification, reputation and activity that add up to the total', () => {
    const trust = computeTrust({
      verified: true,
      tier: 'pro',
      publishedSkills: 2,
      receivedAttestations: 3,
      accountAgeMonths: 4,
      connections: 5,
    });
    expect(trust).toMatchObject({ verification: 50, reputation: 40, activity: 14, total: 104 });
    expect(trust.verification + trust.reputation + trust.activity).toBe(trust.total);
  });
});

describe('personalizedPageRank', () => {
  it('gives a ring unreachable from the seeds nothing, and a node the seeds endorse a high score', () => {
    const nodes = ['seed1', 'seed2', 'good', 'r1', 'r2', 'r3'];
    const edges = [
      { source: 'seed1', target: 'good', weight: 1 },
      { source: 'seed2', target: 'good', weight: 1 },
      { source: 'r1', target: 'r2', weight: 1 },
      { source: 'r2', target: 'r3', weight: 1 },
      { source: 'r3', target: 'r1', weight: 1 },
    ];
    const scores = personalizedPageRank(
      nodes,
      edges,
      new Map([
        ['seed1', 1],
        ['seed2', 3],
      ]),
    );
    expect(scores.get('good')).toBeGreaterThan(50);
    expect(scores.get('r1')).toBe(0);
  });
});
