import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness';
import { db } from '../core/db';
import { skillColumns, skillFromRow } from './skill-row';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const read = async (id: string) => {
  const [row] = await app.database.sql.query(`SELECT ${skillColumns('s')} FROM skills s WHERE s.id = $1`, [id]);
  return skillFromRow(row!);
};

describe('a skill read by raw SQL', () => {
  it('is the record Prisma reads, every column set or null, money exact past 2^53', async () => {
    const full = await db().skill.create({
      data: {
        authorAgentId: crypto.randomUUID(),
        authorWallet: '0x00000000000000000000000000000000000000b1',
        name: 'Full',
        summary: 'summary',
        description: 'description',
        category: 'trading',
        tags: ['alpha', 'beta'],
        pricingType: 'subscription',
        price: 9_007_199_254_740_993n,
        repoUrl: 'https://example.com/repo',
        status: 'draft',
        integrationType: 'api',
        integrationPayload: { zeta: [1, 'two', null], alpha: { nested: true }, n: 1.5 },
        version: '2.0.1',
        rating: 4.25,
        installCount: 7,
        stake: 1_000_000_000_000n,
        family: 'b',
        flagReasons: ['download-and-execute'],
        removedAt: new Date('2026-01-02T03:04:05.006Z'),
        hiddenAt: new Date('2026-02-03T04:05:06.007Z'),
        hiddenBy: '0x00000000000000000000000000000000000000b2',
      },
    });
    const bare = await db().skill.create({
      data: {
        authorWallet: '0x00000000000000000000000000000000000000b3',
        name: 'Bare',
        description: 'd',
        category: 'social',
        pricingType: 'free',
        status: 'active',
        family: 'a',
      },
    });
    const text = (value: unknown) => JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
    for (const skill of [full, bare]) {
      const prisma = await db().skill.findUniqueOrThrow({ where: { id: skill.id } });
      expect(await read(skill.id)).toEqual(prisma);
      expect(text(await read(skill.id))).toBe(text(prisma));
    }
    expect((await read(full.id)).price).toBe(9_007_199_254_740_993n);
  });
});
