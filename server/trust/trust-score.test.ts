import { describe, expect, it } from 'vitest';
import { personalizedPageRank } from './page-rank';
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
    const at = (id: string) => nodes.indexOf(id);
    const edges = [
      ['seed1', 'good'],
      ['seed2', 'good'],
      ['r1', 'r2'],
      ['r2', 'r3'],
      ['r3', 'r1'],
    ];
    const ranks = personalizedPageRank({
      n: nodes.length,
      src: edges.map(([source]) => at(source!)),
      dst: edges.map(([, target]) => at(target!)),
      weight: edges.map(() => 1),
      restart: [1, 3, 0, 0, 0, 0],
    });
    const scores = new Map(nodes.map((id, i) => [id, ranks[i]]));
    expect(scores.get('good')).toBeGreaterThan(50);
    expect(scores.get('r1')).toBe(0);
    expect(Math.max(...ranks)).toBe(100);
  });

  it('ignores self-loops, non-positive weights and out-of-range indexes; without seeds every node restarts alike', () => {
    const ranks = personalizedPageRank({ n: 3, src: [0, 1, 2, 0], dst: [0, 2, 1, 9], weight: [5, 1, 1, 1], restart: [0, 0, 0] });
    // 1 and 2 endorse each other; 0 only endorses itself (ignored) and a node that does not exist (ignored).
    expect(ranks[1]).toBe(100);
    expect(ranks[2]).toBe(100);
    expect(ranks[0]).toBeLessThan(ranks[1]!);
    expect(personalizedPageRank({ n: 2, src: [0], dst: [1], weight: [-1], restart: [1, 0] })[1]).toBe(0);
  });
});
