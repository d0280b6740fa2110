import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '../core/db';
import { parsePostgresUrl } from '../core/db/open';
import { EVENTS_ORDER_LOCK } from '../events/emit';
import { startTestApp, type TestApp } from '../../test/harness';
import { freeCallStats, freeCallsStatement, recordFreeCall, type FreeCall } from './record-free-calls';

// Free calls' records and events (record-free-calls.ts): concurrent ones go together, each exactly once.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const sql = () => database().sql;

function freeCall(caller: string, i: number, id = randomUUID()): FreeCall {
  return {
    id,
    callerWallet: caller,
    callerAgentId: null,
    targetAgentId: randomUUID(),
    targetWallet: '0xTargetOwner',
    status: i % 3 === 0 ? 'error' : 'success',
    httpStatus: i % 3 === 0 ? 500 : 200,
    durationMs: i,
    error: i % 3 === 0 ? 'target_error' : null,
    family: 'b',
    createdAt: new Date(),
    event: { invocation_id: id, n: i },
    audience: [caller, '0xTargetOwner'],
  };
}

describe('free calls’ records', () => {
  it('go together while a statement is in flight, each record and event exactly once', async () => {
    const caller = `0xFREE${randomUUID().slice(0, 8)}`;
    const calls = Array.from({ length: 30 }, (_, i) => freeCall(caller, i));
    const before = { ...freeCallStats };
    await Promise.all(calls.map((call) => recordFreeCall(call, sql(), true)));
    expect(freeCallStats.records - before.records).toBe(30);
    expect(freeCallStats.statements - before.statements).toBeLessThan(30);
    const rows = await sql().query<{ id: string; status: string; http_status: number | null; error: string | null; fee: string }>(
      `SELECT id, status, http_status, error, fee::text FROM invocations WHERE caller_wallet = $1`,
      [caller],
    );
    expect(rows).toHaveLength(30);
    for (const call of calls) {
      expect(rows.find((row) => row.id === call.id)).toEqual({
        id: call.id,
        status: call.status,
        http_status: call.httpStatus,
        error: call.error,
        fee: '0',
      });
    }
    const events = await sql().query<{ data: { invocation_id: string; n: number }; audience: string[] }>(
      `SELECT data, audience FROM events WHERE name = 'agent.invoked' AND audience @> ARRAY[$1]::text[] ORDER BY id`,
      [caller.toLowerCase()],
    );
    expect(events.map((e) => e.data.invocation_id).sort()).toEqual(calls.map((c) => c.id).sort());
    for (const event of events) expect(event.audience.sort()).toEqual([caller.toLowerCase(), '0xtargetowner'].sort());
  });

  it('a record the database refuses fails its own call only', async () => {
    const caller = `0xFREE${randomUUID().slice(0, 8)}`;
    const first = freeCall(caller, 1);
    const calls = [first, freeCall(caller, 2), { ...freeCall(caller, 4), id: first.id }, freeCall(caller, 5)];
    const results = await Promise.allSettled(calls.map((call) => recordFreeCall(call, sql(), true)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const [count] = await sql().query<{ n: number }>(`SELECT count(*)::int AS n FROM invocations WHERE caller_wallet = $1`, [
      caller,
    ]);
    expect(count!.n).toBe(3);
  });
});

describe('free calls’ events, numbered as they are written', () => {
  it('get their ids in the order of the calls', async () => {
    const caller = `0xFREE${randomUUID().slice(0, 8)}`;
    const calls = Array.from({ length: 12 }, (_, i) => freeCall(caller, i));
    await Promise.all(calls.map((call) => recordFreeCall(call, sql(), true)));
    const events = await sql().query<{ id: string; n: number }>(
      `SELECT id::text, (data->>'n')::int AS n FROM events WHERE name = 'agent.invoked' AND audience @> ARRAY[$1]::text[] ORDER BY id`,
      [caller.toLowerCase()],
    );
    expect(events).toHaveLength(12);
    for (const event of events) expect(BigInt(event.id)).toBeGreaterThan(0n);
    // One statement numbers its group in the calls' order; groups follow each other.
    expect(events.map((event) => event.n)).toEqual(calls.map((_, i) => i));
  });

  // The statement takes the events' order lock and then waits for nothing (invocation-rows.ts, invokedEvents): it
  // writes new rows only. A foreign key or a trigger that locks an existing row would make it deadlock with a
  // transaction that holds that row and takes the lock at commit; this fails when one is added.
  it('write only new rows: no foreign key or unknown trigger on the tables the statement writes', async () => {
    const keys = await sql().query<{ conname: string }>(
      `SELECT conname FROM pg_constraint
       WHERE contype = 'f' AND conrelid IN ('invocations'::regclass, 'events'::regclass, 'platform_counts'::regclass)`,
    );
    expect(keys).toEqual([]);
    const triggers = await sql().query<{ table: string; name: string }>(
      `SELECT tgrelid::regclass::text AS table, tgname AS name FROM pg_trigger
       WHERE NOT tgisinternal AND tgrelid IN ('invocations'::regclass, 'events'::regclass, 'platform_counts'::regclass)
       ORDER BY 1, 2`,
    );
    expect(triggers.map((t) => `${t.table}.${t.name}`)).toEqual([
      'events.events_change_notice',
      'events.events_commit_order',
      'events.events_count_del',
      'events.events_count_ins',
      'invocations.invocations_count_del',
      'invocations.invocations_count_ins',
      'invocations.invocations_count_upd',
      // Fires for paid calls only (fee > 0): a free call's record never runs it.
      'invocations.invocations_standing_ins',
      'invocations.invocations_standing_upd',
    ]);
    // The lock is the one the commit-time renumbering takes.
    const [fn] = await sql().query<{ body: string }>(`SELECT pg_get_functiondef('vs_event_commit_order'::regproc) AS body`);
    expect(fn!.body).toContain(EVENTS_ORDER_LOCK);
  });

  async function otherSession(): Promise<pg.Client> {
    const other = new pg.Client({ connectionString: parsePostgresUrl(process.env.DATABASE_URL!).connectionString });
    await other.connect();
    await other.query(`SET search_path TO "${app.database.schema}"`);
    return other;
  }

  it.runIf(Boolean(process.env.DATABASE_URL))('have their final ids before the commit (nothing to renumber then)', async () => {
    const other = await otherSession();
    try {
      const caller = `0xFREE${randomUUID().slice(0, 8)}`;
      const { sql: text, params } = freeCallsStatement([freeCall(caller, 1), freeCall(caller, 2)]);
      await other.query('BEGIN');
      await other.query(text, params);
      const { rows } = await other.query<{ id: string }>(`SELECT id::text FROM events WHERE audience @> ARRAY[$1]::text[]`, [
        caller.toLowerCase(),
      ]);
      expect(rows).toHaveLength(2);
      for (const row of rows) expect(BigInt(row.id)).toBeGreaterThan(0n);
      await other.query('COMMIT');
    } finally {
      await other.end();
    }
  });

  it.runIf(Boolean(process.env.DATABASE_URL))(
    'take the counters’ table before the order lock (no deadlock with a migration)',
    async () => {
      const other = await otherSession();
      try {
        // A migration that holds the count triggers' table and writes an event, then commits (taking the order lock).
        await other.query('BEGIN');
        await other.query('LOCK TABLE platform_counts IN SHARE ROW EXCLUSIVE MODE');
        await other.query(`INSERT INTO events (name, data, audience) VALUES ('agent.updated', '{}', ARRAY['0xmigration'])`);
        const caller = `0xFREE${randomUUID().slice(0, 8)}`;
        const recorded = recordFreeCall(freeCall(caller, 1), sql(), true);
        // The free call now waits for the table, holding nothing the migration's commit needs.
        await new Promise((resolve) => setTimeout(resolve, 300));
        await other.query('COMMIT');
        await expect(recorded).resolves.toBeUndefined();
        const [order] = await sql().query<{ theirs: string; mine: string }>(
          `SELECT (SELECT max(id) FROM events WHERE audience @> ARRAY['0xmigration'])::text AS theirs,
                (SELECT max(id) FROM events WHERE audience @> ARRAY[$1]::text[])::text AS mine`,
          [caller.toLowerCase()],
        );
        expect(BigInt(order!.mine)).toBeGreaterThan(BigInt(order!.theirs));
      } finally {
        await other.end();
      }
    },
  );

  it.runIf(Boolean(process.env.DATABASE_URL))(
    'wait for a transaction committing an event, and number theirs after it',
    async () => {
      const other = await otherSession();
      try {
        // As a committing writer does: its event has a temporary id until its commit renumbers it under the lock.
        await other.query('BEGIN');
        await other.query(`INSERT INTO events (name, data, audience) VALUES ('agent.updated', '{}', ARRAY['0xother'])`);
        await other.query(`SELECT ${EVENTS_ORDER_LOCK}`);
        const caller = `0xFREE${randomUUID().slice(0, 8)}`;
        let done = false;
        const recorded = recordFreeCall(freeCall(caller, 1), sql(), true).then(() => (done = true));
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(done).toBe(false);
        await other.query('COMMIT');
        await recorded;
        const [order] = await sql().query<{ theirs: string; mine: string }>(
          `SELECT (SELECT max(id) FROM events WHERE audience @> ARRAY['0xother'])::text AS theirs,
                (SELECT max(id) FROM events WHERE audience @> ARRAY[$1]::text[])::text AS mine`,
          [caller.toLowerCase()],
        );
        expect(BigInt(order!.theirs)).toBeGreaterThan(0n);
        expect(BigInt(order!.mine)).toBeGreaterThan(BigInt(order!.theirs));
      } finally {
        await other.end();
      }
    },
  );
});
