import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '../core/db';
import { holdAccount, walletAccount, WORLD_GRANTS } from '../credits/accounts';
import { post } from '../credits/ledger';
import { batchStatement, batchStats } from '../credits/ledger-batch';
import { startTestApp, type TestApp } from '../../test/harness';
import { INVOCATION_CHARGES, INVOCATION_SETTLEMENTS, type InvocationCharge } from './invocation-rows';

// A paid call's invocation rows beside its ledger posts (invocation-rows.ts): one text for any batch, every call's
// record and event exactly once, and no event for a record already settled.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const sql = () => database().sql;

function charge(caller: string, target: string): InvocationCharge {
  return {
    id: randomUUID(),
    callerWallet: caller,
    callerAgentId: null,
    targetAgentId: target,
    targetWallet: '0xOwner',
    fee: 5n,
    family: 'b',
    createdAt: new Date(),
  };
}

describe('invocation rows beside the ledger', () => {
  it('make one statement text for any number of calls (it is prepared)', () => {
    const texts = [2, 7, 40].map((n) => {
      const items = Array.from({ length: n }, () => {
        const row = charge('0xCaller', randomUUID());
        return {
          id: randomUUID(),
          reason: 'invocation_charge',
          refType: 'invocation',
          refId: row.id,
          postings: [
            [walletAccount('0xCaller'), -5n],
            [holdAccount('invocation', row.id), 5n],
          ] as [string, bigint][],
          alongside: { kind: INVOCATION_CHARGES, row },
        };
      });
      return batchStatement(items);
    });
    expect(texts.every((t) => t.fixedText)).toBe(true);
    expect(new Set(texts.map((t) => t.sql)).size).toBe(1);
  });

  it('charge and settle concurrent calls in batches: each record once, each event once, none for a settled record', async () => {
    const caller = `0xROWS${randomUUID().slice(0, 8)}`;
    await post(
      {
        reason: 'grant',
        postings: [
          { account: WORLD_GRANTS, amount: -1_000n },
          { account: walletAccount(caller), amount: 1_000n },
        ],
      },
      sql(),
    );
    const rows = Array.from({ length: 24 }, () => charge(caller, randomUUID()));
    const before = { ...batchStats };
    await Promise.all(
      rows.map((row) =>
        post(
          {
            reason: 'invocation_charge',
            refType: 'invocation',
            refId: row.id,
            postings: [
              { account: walletAccount(caller), amount: -row.fee },
              { account: holdAccount('invocation', row.id), amount: row.fee },
            ],
            alongside: { kind: INVOCATION_CHARGES, row },
            batch: true,
          },
          sql(),
        ),
      ),
    );
    expect(batchStats.posts - before.posts).toBeGreaterThan(0);
    const pending = await sql().query<{ id: string; status: string; fee: string }>(
      `SELECT id, status, fee::text FROM invocations WHERE caller_wallet = $1`,
      [caller],
    );
    expect(pending.map((r) => r.id).sort()).toEqual(rows.map((r) => r.id).sort());
    expect(pending.every((r) => r.status === 'pending' && r.fee === '5')).toBe(true);

    // One record is settled elsewhere first (the stale sweep): its settlement moves the money but adds no event.
    const swept = rows[0]!;
    await sql().query(`UPDATE invocations SET status = 'timeout' WHERE id = $1`, [swept.id]);
    await Promise.all(
      rows.map((row, i) =>
        post(
          {
            reason: 'invocation_payment',
            refType: 'invocation',
            refId: row.id,
            postings: [
              { account: holdAccount('invocation', row.id), amount: -row.fee },
              { account: walletAccount('0xOwner'), amount: row.fee },
            ],
            alongside: {
              kind: INVOCATION_SETTLEMENTS,
              row: {
                id: row.id,
                status: i % 2 ? 'success' : 'error',
                httpStatus: i % 2 ? 200 : 500,
                durationMs: i,
                error: i % 2 ? null : 'target_error',
                event: { invocation_id: row.id, n: i },
                audience: [caller, '0xOwner'],
              },
            },
            batch: true,
            asyncCommit: true,
          },
          sql(),
        ),
      ),
    );
    const settled = await sql().query<{ id: string; status: string; http_status: number | null; duration_ms: number | null }>(
      `SELECT id, status, http_status, duration_ms FROM invocations WHERE caller_wallet = $1`,
      [caller],
    );
    rows.forEach((row, i) => {
      const found = settled.find((r) => r.id === row.id)!;
      if (row === swept) expect(found).toMatchObject({ status: 'timeout', http_status: null });
      else
        expect(found).toEqual({
          id: row.id,
          status: i % 2 ? 'success' : 'error',
          http_status: i % 2 ? 200 : 500,
          duration_ms: i,
        });
    });
    const events = await sql().query<{ data: { invocation_id: string }; audience: string[] }>(
      `SELECT data, audience FROM events WHERE name = 'agent.invoked' AND audience @> ARRAY[$1]::text[]`,
      [caller.toLowerCase()],
    );
    expect(events.map((e) => e.data.invocation_id).sort()).toEqual(
      rows
        .filter((r) => r !== swept)
        .map((r) => r.id)
        .sort(),
    );
    for (const event of events) expect(event.audience.sort()).toEqual([caller.toLowerCase(), '0xowner'].sort());
    const [balances] = await sql().query<{ caller: string; owner_delta: string; held: string }>(
      `SELECT (SELECT balance::text FROM ledger_accounts WHERE id = $1) AS caller,
              (SELECT coalesce(sum(balance), 0)::text FROM ledger_accounts WHERE id = ANY($2::text[])) AS held`,
      [walletAccount(caller), rows.map((r) => holdAccount('invocation', r.id))],
    );
    expect(balances).toMatchObject({ caller: String(1_000 - 5 * rows.length), held: '0' });
  });
});
