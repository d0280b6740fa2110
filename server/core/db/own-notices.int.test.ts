import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness';
import { registerAgent } from '../../../test/wallets';
import { withTransaction } from '../db';
import { parsePostgresUrl } from './open';

// An instance hears its own changes before the statement that made them returns (server/core/changes.ts), with
// one listening connection per instance: on PostgreSQL the writing session's `vs_change` NOTICE, applied when its
// transaction ends (open.ts, applyOwnNotices); on PGlite the one connection's own notification.

let app: TestApp;
// An agent per test: a change's notice also arrives later through the listening connection.
let agents: string[];
beforeAll(async () => {
  app = await startTestApp();
  agents = [];
  for (let i = 0; i < 3; i++) {
    const { response } = await registerAgent(app);
    agents.push(response.body.agent?.id ?? response.body.id);
  }
  expect(agents.every((id) => /^[0-9a-f-]{36}$/.test(id))).toBe(true);
});
afterAll(() => app.close());

function hear(): { ids: (string | null)[]; stop: () => void } {
  const ids: (string | null)[] = [];
  const stop = app.runtime.changes.on('agent', (notice) => ids.push(notice.id));
  return { ids, stop };
}

describe('own change notices', () => {
  it('reach the caches before the writing statement returns', async () => {
    const agentId = agents[0]!;
    const heard = hear();
    await app.database.sql.query('UPDATE agents SET bio = $2 WHERE id = $1', [agentId, 'changed once']);
    expect(heard.ids).toContain(agentId);
    heard.stop();
  });

  it('in a transaction, arrive once it has committed, before the commit returns', async () => {
    const agentId = agents[1]!;
    const heard = hear();
    await withTransaction(
      async (tx) => {
        await tx.sql.query('UPDATE agents SET bio = $2 WHERE id = $1', [agentId, 'changed twice']);
        await tx.sql.query('SELECT 1');
        expect(heard.ids).not.toContain(agentId);
      },
      { database: app.database },
    );
    expect(heard.ids).toContain(agentId);
    heard.stop();
  });

  it('come from the writing session only: no pooled connection listens (PostgreSQL)', async () => {
    if (app.database.kind !== 'postgres') return;
    const agentId = agents[2]!;
    // Ten statements at once hold ten pooled connections: none listens on any channel.
    const counts = await Promise.all(
      Array.from({ length: 10 }, () =>
        app.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_listening_channels(), pg_sleep(0.05)'),
      ),
    );
    expect(counts.map((rows) => rows[0]!.n)).toEqual(Array(10).fill(0));
    // A session of another program (no vs.own_notices) gets no NOTICE from the same trigger.
    const heard = hear();
    const notices: string[] = [];
    const client = new pg.Client({ connectionString: parsePostgresUrl(process.env.DATABASE_URL!).connectionString });
    client.on('notice', (message) => notices.push(message.message ?? ''));
    await client.connect();
    await client.query(`SET search_path = "${app.database.schema}"`);
    await client.query('UPDATE agents SET bio = $2 WHERE id = $1', [agentId, 'changed elsewhere']);
    await client.end();
    expect(notices).toEqual([]);
    // ...and the instance hears that change through its listening connection.
    await expect.poll(() => heard.ids.includes(agentId), { timeout: 5000 }).toBe(true);
    heard.stop();
  });
});
