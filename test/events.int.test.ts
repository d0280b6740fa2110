import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setAgentTier } from '../server/agents/tiers';
import { database, withTransaction } from '../server/core/db';
import { emit } from '../server/events/emit';
import { startTestApp, type TestApp } from './harness';
import { newWallet, signIn } from './wallets';

// The event log itself: an event exists exactly when its change committed, the tier hook, and the
// cron route that runs scheduled jobs.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ CRON_SECRET: 'c'.repeat(40) });
});
afterAll(async () => {
  await app.close();
});

const eventsNamed = (name: string) =>
  database().sql.query<{ id: string; data: any; audience: string[] }>(
    `SELECT id::text AS id, data, audience FROM events WHERE name = $1 ORDER BY events.id`,
    [name],
  );

describe('event log', () => {
  it('keeps an event only when its transaction commits, with positive commit-ordered ids and the audience in lowercase', async () => {
    await expect(
      withTransaction(async (tx) => {
        await emit('job.posted', { job_id: 'rolled-back' }, tx.sql);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    const wallet = newWallet().address;
    await withTransaction(async (tx) => {
      await emit('job.posted', { job_id: 'first' }, tx.sql);
      await emit('agent.invoked', { invocation_id: 'x' }, tx.sql, { audience: [wallet, wallet] });
    });
    const posted = await eventsNamed('job.posted');
    expect(posted.map((e) => e.data.job_id)).toEqual(['first']);
    const invoked = await eventsNamed('agent.invoked');
    expect(invoked.at(-1)!.audience).toEqual([wallet.toLowerCase()]);
    expect(BigInt(invoked.at(-1)!.id)).toBe(BigInt(posted[0]!.id) + 1n);
    expect(posted[0]!.audience).toEqual([]);
  });

  it('setAgentTier emits agent.tier_upgraded once per change, in the transaction of the change', async () => {
    const session = await signIn(app, newWallet());
    const created = await app.post('/api/v1/agents', { agent_name: 'Tiered' }, { token: session.token });
    const id = created.body.agent_id as string;
    expect(await withTransaction((tx) => setAgentTier(id, 'entry', tx.sql))).toBe(true);
    expect(await withTransaction((tx) => setAgentTier(id, 'entry', tx.sql))).toBe(false);
    await expect(
      withTransaction(async (tx) => {
        await setAgentTier(id, 'pro', tx.sql);
        throw new Error('rollback');
      }),
    ).rejects.toThrow();
    expect(await withTransaction((tx) => setAgentTier(id, 'none', tx.sql))).toBe(true);
    const events = (await eventsNamed('agent.tier_upgraded')).filter((e) => e.data.agent_id === id);
    expect(events.map((e) => [e.data.previous_tier, e.data.tier, e.data.direction])).toEqual([
      ['none', 'entry', 'up'],
      ['entry', 'none', 'down'],
    ]);
  });
});

describe('GET /api/cron/{job}', () => {
  it('runs a job with the cron secret; 401 without it, 404 for an unknown job', async () => {
    expect((await app.get('/api/cron/webhooks')).status).toBe(401);
    expect((await app.get('/api/cron/webhooks', { headers: { authorization: `Bearer ${'d'.repeat(40)}` } })).status).toBe(401);
    const ok = await app.get('/api/cron/webhooks', { headers: { authorization: `Bearer ${'c'.repeat(40)}` } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ job: 'webhooks' });
    const cursor = await database().sql.query<{ last_id: string }>(
      `SELECT last_id::text FROM event_cursors WHERE name = 'webhooks'`,
    );
    const head = await database().sql.query<{ id: string }>('SELECT max(id)::text AS id FROM events');
    expect(cursor[0]!.last_id).toBe(head[0]!.id);
    expect((await app.get('/api/cron/nothing', { headers: { authorization: `Bearer ${'c'.repeat(40)}` } })).status).toBe(404);
  });
});
