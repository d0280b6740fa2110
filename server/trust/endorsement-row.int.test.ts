import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness';
import { db } from '../core/db';
import { endorsementColumns, endorsementFromRow } from './endorsement-row';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const read = async (id: string) => {
  const [row] = await app.database.sql.query(`SELECT ${endorsementColumns('e')} FROM endorsements e WHERE e.id = $1`, [id]);
  return endorsementFromRow(row!);
};

describe('an endorsement read by raw SQL', () => {
  it('is the record Prisma reads, every column set or null', async () => {
    const subjectAgentId = crypto.randomUUID();
    const full = await db().endorsement.create({
      data: {
        subjectAgentId,
        endorserWallet: '0x00000000000000000000000000000000000000e1',
        attestationType: 'security_audited',
        evidenceUrl: 'https://example.com/audit',
        stakeAmount: '12.5',
        message: 'Endorse agent x as security_audited',
        status: 'revoked',
        revokedAt: new Date('2026-03-04T05:06:07.008Z'),
      },
    });
    const bare = await db().endorsement.create({
      data: {
        subjectAgentId,
        endorserWallet: '0x00000000000000000000000000000000000000e2',
        attestationType: 'trusted',
        message: 'm',
      },
    });
    for (const endorsement of [full, bare]) {
      const prisma = await db().endorsement.findUniqueOrThrow({ where: { id: endorsement.id } });
      expect(await read(endorsement.id)).toEqual(prisma);
      expect(JSON.stringify(await read(endorsement.id))).toBe(JSON.stringify(prisma));
    }
  });
});
