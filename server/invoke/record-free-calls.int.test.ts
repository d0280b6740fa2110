import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '../core/db';
import { startTestApp, type TestApp } from '../../test/harness';
import { freeCallStats, recordFreeCall, type FreeCall } from './record-free-calls';

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
