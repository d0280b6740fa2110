import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness';
import { db } from '../core/db';
import { agentFromRow, agentJson } from './agent-row';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const read = async (id: string) => {
  const [row] = await app.database.sql.query<{ agent: Record<string, unknown> }>(
    `SELECT ${agentJson('a')} AS agent FROM agents a WHERE a.id = $1`,
    [id],
  );
  return agentFromRow(row!.agent);
};

describe('an agent read as json', () => {
  it('is the record Prisma reads, every column set or null, money exact past 2^53', async () => {
    const full = await db().agent.create({
      data: {
        ownerWallet: '0x00000000000000000000000000000000000000A1',
        agentPubkey: 'pk-full',
        name: 'Full',
        handle: 'full-record',
        bio: 'bio',
        avatarUrl: 'https://example.com/a.png',
        twitterHandle: 'tw',
        discordHandle: 'dc',
        telegramHandle: 'tg',
        tier: 'pro',
        status: 'paused',
        scopes: ['agents.read', 'credits.read'],
        isCallable: true,
        invokeUrl: 'https://example.com/invoke',
        invokeSchema: { type: 'object', properties: { q: { type: 'string' } }, n: 1.5 },
        priceClawPerCall: 9_007_199_254_740_993n,
        pricePending: 2_500_000n,
        priceEffectiveAt: new Date('2026-12-01T10:11:12.345Z'),
        maxSpendPerDay: 9_223_372_036_854_775_807n,
        metadata: { zeta: [1, 'two', null], alpha: { nested: true } },
        verifiedAt: new Date('2026-01-02T03:04:05.006Z'),
        adminPausedAt: new Date('2026-02-03T04:05:06.007Z'),
      },
    });
    const bare = await db().agent.create({
      data: {
        ownerWallet: '0x00000000000000000000000000000000000000A2',
        agentPubkey: 'pk-bare',
        name: 'Bare',
        handle: 'bare-record',
      },
    });
    // json text too: key order inside metadata and invoke_schema, dates, bigints
    const text = (value: unknown) => JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
    for (const agent of [full, bare]) {
      const prisma = await db().agent.findUniqueOrThrow({ where: { id: agent.id } });
      expect(await read(agent.id)).toEqual(prisma);
      expect(text(await read(agent.id))).toBe(text(prisma));
    }
    expect((await read(full.id)).priceClawPerCall).toBe(9_007_199_254_740_993n);
  });
});
