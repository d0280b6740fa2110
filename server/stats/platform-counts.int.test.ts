import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness';
import { registerAgent } from '../../test/wallets';
import { compactPlatformCounts, platformStats } from './platform-stats';

// The platform counters follow every insert, update and delete of the tables each call writes (migration
// hot_counts): GET /api/stats equals counting the tables, before and after the deltas are folded.

let app: TestApp;
let agentId: string;
beforeAll(async () => {
  app = await startTestApp();
  const { response } = await registerAgent(app);
  agentId = response.body.agent?.id ?? response.body.id;
});
afterAll(() => app.close());

const count = async (sql: string) => (await app.database.sql.query<{ n: number }>(sql))[0]!.n;
const tables = async () => ({
  invocations: await count(`SELECT count(*)::int AS n FROM invocations WHERE status = 'success'`),
  events: await count('SELECT count(*)::int AS n FROM events'),
});
const counters = async () => {
  const stats = await platformStats();
  return { invocations: stats.invocations, events: stats.events };
};

describe('platform counters of invocations and events', () => {
  it('equal counting the tables through inserts, status changes and deletes', async () => {
    const sql = app.database.sql;
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    await sql.query(
      `INSERT INTO invocations (id, caller_wallet, target_agent_id, target_wallet, fee, status, family, created_at)
       SELECT id, '0xcounter', $2, '0xowner', 0, status, 'b', now()
       FROM unnest($1::uuid[], ARRAY['success', 'success', 'pending']) AS v(id, status)`,
      [ids, agentId],
    );
    expect(await counters()).toEqual(await tables());
    await sql.query(`UPDATE invocations SET status = 'success' WHERE id = $1`, [ids[2]]);
    await sql.query(`UPDATE invocations SET status = 'error' WHERE id = $1`, [ids[0]]);
    expect(await counters()).toEqual(await tables());
    await sql.query(`DELETE FROM invocations WHERE id = ANY($1::uuid[])`, [ids.slice(1)]);
    await sql.query(`INSERT INTO events (name, data) VALUES ('agent.invoked', '{}'), ('agent.invoked', '{}')`);
    await sql.query(`DELETE FROM events WHERE id = (SELECT max(id) FROM events)`);
    const expected = await tables();
    expect(await counters()).toEqual(expected);
    await compactPlatformCounts(sql);
    expect(await counters()).toEqual(expected);
    expect(await count(`SELECT count(*)::int AS n FROM platform_counts WHERE name = 'invocations'`)).toBe(1);
  });
});
