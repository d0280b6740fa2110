import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness';
import { database, db } from '../server/core/db';
import type { Agent } from '../server/core/db/generated/client';
import { listAgents } from '../server/directory/list-agents';
import { loadAgentMetrics } from '../server/trust/agent-metrics';
import { refreshAgentStats } from '../server/trust/trust-counts';
import { agentColumns, agentFromRow } from '../server/agents/agent-row';

// A raw-SQL read of an agent (the lists' one statement) must give exactly what Prisma gives: every
// field, under the model's name, of the model's type. Compared with Prisma's read of the same rows.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const sql = () => database().sql;

/** An agent with every column set to a value other than its default (nullable ones not null). */
async function fullAgent(): Promise<string> {
  const id = randomUUID();
  await db().agent.create({
    data: {
      id,
      ownerWallet: `0x${randomUUID().replace(/-/g, '').padEnd(40, 'a')}`,
      agentPubkey: `pk-${id}`,
      name: 'Full Row',
      handle: `full-${id.slice(0, 8)}`,
      bio: 'every field set',
      avatarUrl: 'https://img.example/full.png',
      twitterHandle: 'fullrow',
      discordHandle: 'fullrow#1',
      telegramHandle: 'fullrow_tg',
      tier: 'pro',
      status: 'paused',
      scopes: ['agents.invoke', 'skills.publish'],
      isCallable: true,
      invokeUrl: 'https://agent.example/invoke',
      invokeSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
      // past 2^53: int8 must not pass through a float
      priceClawPerCall: 9_007_199_254_740_993n,
      pricePending: 12_345_678n,
      priceEffectiveAt: new Date('2031-02-03T04:05:06.789Z'),
      maxSpendPerDay: 250_000_000n,
      metadata: { nested: { list: [1, 'two', null, true] }, note: 'ü' },
      verifiedAt: new Date('2030-01-02T03:04:05.678Z'),
      adminPausedAt: new Date('2030-05-06T07:08:09.012Z'),
      createdAt: new Date('2029-12-31T23:59:59.999Z'),
    },
  });
  return id;
}

/** An agent with only the required columns: every nullable one null, the rest at their defaults. */
async function bareAgent(): Promise<string> {
  const id = randomUUID();
  await db().agent.create({
    data: {
      id,
      ownerWallet: `0x${id.replace(/-/g, '').padEnd(40, 'b')}`,
      agentPubkey: `pk-${id}`,
      name: 'Bare',
      handle: `bare-${id.slice(0, 8)}`,
    },
  });
  return id;
}

async function rawAgent(id: string): Promise<Agent> {
  const [row] = await sql().query<Record<string, unknown>>(`SELECT ${agentColumns('a')} FROM agents a WHERE a.id = $1`, [id]);
  return agentFromRow(row!);
}

function expectSameAgent(actual: Agent, expected: Agent) {
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
  for (const field of Object.keys(expected) as (keyof Agent)[]) {
    expect({ field, value: actual[field] }).toStrictEqual({ field, value: expected[field] });
  }
}

describe('agentFromRow', () => {
  it('maps every column of a fully set agent to the field and type Prisma gives', async () => {
    const id = await fullAgent();
    const expected = (await db().agent.findUnique({ where: { id } }))!;
    // every field of the model is set here, so a dropped or renamed one cannot compare equal by accident
    for (const [field, value] of Object.entries(expected)) expect({ field, value }).not.toEqual({ field, value: null });
    const actual = await rawAgent(id);
    expectSameAgent(actual, expected);
    expect(typeof actual.priceClawPerCall).toBe('bigint');
    expect(actual.priceClawPerCall).toBe(9_007_199_254_740_993n);
    expect(actual.createdAt).toBeInstanceOf(Date);
  });

  it('maps null and default columns as Prisma does', async () => {
    const id = await bareAgent();
    expectSameAgent(await rawAgent(id), (await db().agent.findUnique({ where: { id } }))!);
  });

  it('maps a NULL list column to the empty list Prisma gives', async () => {
    const id = await bareAgent();
    await sql().query('UPDATE agents SET scopes = NULL WHERE id = $1', [id]);
    const expected = (await db().agent.findUnique({ where: { id } }))!;
    expect(expected.scopes).toEqual([]);
    expectSameAgent(await rawAgent(id), expected);
  });

  it('refuses a row that lacks a column rather than leaving the field out', async () => {
    const [row] = await sql().query<Record<string, unknown>>(`SELECT a.id, a.name FROM agents a LIMIT 1`);
    expect(() => agentFromRow(row!)).toThrow(/without column/);
  });
});

describe('listAgents (one statement: page, agents, metrics, total)', () => {
  it('returns the agents Prisma reads, in order, and the metrics of the separate read', async () => {
    const ids = [await fullAgent(), await bareAgent(), await fullAgent()];
    await refreshAgentStats(sql());
    // one agent marked dirty: its counts come from the live count, as the separate read's do
    await sql().query('INSERT INTO agent_stats_dirty (agent_id) VALUES ($1)', [ids[1]]);
    const { agents, metrics, total, totalExact } = await listAgents({ search: 'Full Row', limit: 10, offset: 0 });
    const expected = await db().agent.findMany({
      where: { name: 'Full Row' },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    });
    expect(agents.map((agent) => agent.id)).toEqual(expected.map((agent) => agent.id));
    agents.forEach((agent, i) => expectSameAgent(agent, expected[i]!));
    expect(total).toBe(expected.length);
    expect(totalExact).toBe(true);
    expect(metrics).toEqual(await loadAgentMetrics(agents, sql()));

    const all = await listAgents({ limit: 200, offset: 0 });
    const bare = all.agents.find((agent) => agent.id === ids[1])!;
    expectSameAgent(bare, (await db().agent.findUnique({ where: { id: ids[1] } }))!);
    expect(all.metrics.get(ids[1]!)).toEqual((await loadAgentMetrics([bare], sql())).get(ids[1]!));
    expect(all.total).toBe(await db().agent.count());
  });

  it('answers an empty page past the end with the total', async () => {
    const count = await db().agent.count();
    const plain = await listAgents({ limit: 5, offset: count + 10 });
    expect(plain).toMatchObject({ agents: [], total: count, totalExact: true });
    expect(plain.metrics.size).toBe(0);
    const filtered = await listAgents({ search: 'Full Row', limit: 5, offset: 50 });
    expect(filtered.agents).toEqual([]);
    expect(filtered.total).toBeGreaterThan(0);
  });
});
