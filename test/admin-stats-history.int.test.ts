import { randomUUID } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../server/trpc/router';
import { startTestApp, type TestApp } from './harness';
import { newWallet, registerAgent } from './wallets';

// The admin console's activity per UTC day (admin.statsHistory, server/admin/stats-history.ts): new agents,
// endorsements, attestations and successful invocations of each of the last `days` days, each table read once over
// its range of days. Checked against counting each day on its own (the definition), around the days' edges.

const admin = newWallet();
let app: TestApp;
let subject: string;
beforeAll(async () => {
  app = await startTestApp({ ADMIN_WALLETS: admin.address });
  const { response } = await registerAgent(app);
  subject = response.body.agent?.id ?? response.body.id;
});
afterAll(() => app.close());

const as = (wallet: `0x${string}` | null, isAdmin = false) => appRouter.createCaller({ wallet, isAdmin, clientIp: '127.0.0.1' });

/** The start of the database's current UTC day (the query's "today"), read once the rows are about to be written. */
let midnight = 0;

/** Midnight UTC `daysAgo` days before today, plus `ms` (negative: the day before's last instants). */
const at = (daysAgo: number, ms = 0) => new Date(midnight - daysAgo * 86_400_000 + ms);

const day = (daysAgo: number) => at(daysAgo).toISOString().slice(0, 10);

/** Each of the last `days` days counted on its own, as the definition reads. */
async function countedDayByDay(days: number) {
  const rows = await app.database.sql.query<Record<string, string | number>>(
    `SELECT to_char(d.day, 'YYYY-MM-DD') AS day,
       (SELECT count(*) FROM agents a WHERE (a.created_at AT TIME ZONE 'utc')::date = d.day)::int AS agents,
       (SELECT count(*) FROM endorsements e WHERE (e.created_at AT TIME ZONE 'utc')::date = d.day)::int AS endorsements,
       (SELECT count(*) FROM attestations t WHERE (t.created_at AT TIME ZONE 'utc')::date = d.day)::int AS attestations,
       (SELECT count(*) FROM invocations i WHERE i.status = 'success' AND (i.created_at AT TIME ZONE 'utc')::date = d.day)::int
         AS invocations
     FROM generate_series((now() AT TIME ZONE 'utc')::date - ($1::int - 1), (now() AT TIME ZONE 'utc')::date, interval '1 day') AS d(day)
     ORDER BY d.day`,
    [days],
  );
  return rows.map((row) => ({ ...row, day: String(row.day) }));
}

describe('admin.statsHistory', () => {
  it('counts each UTC day of the range, its first and last instants included, and nothing before it', async () => {
    const sql = app.database.sql;
    const [row] = await sql.query<{ today: string }>(`SELECT to_char((now() AT TIME ZONE 'utc')::date, 'YYYY-MM-DD') AS today`);
    midnight = Date.parse(`${row!.today}T00:00:00Z`);
    // The range of 3 days starts 2 days ago: its first instant, the instant before it (the day before, outside), the
    // last and first instants of each day inside it, and a day well before it.
    const created = [at(2), at(2, -1), at(1, -1), at(1), at(0, -1), at(6)];
    for (const [i, when] of created.entries()) {
      await sql.query(
        `INSERT INTO agents (id, owner_wallet, agent_pubkey, name, handle, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6)`,
        [randomUUID(), newWallet().address.toLowerCase(), `history-${i}`, `History ${i}`, `history-${i}-${Date.now()}`, when],
      );
      await sql.query(
        `INSERT INTO endorsements (id, subject_agent_id, endorser_wallet, attestation_type, message, created_at)
         VALUES ($1, $2, $3, 'trusted', 'history', $4)`,
        [randomUUID(), subject, newWallet().address.toLowerCase(), when],
      );
      await sql.query(
        `INSERT INTO attestations (id, subject_agent_id, attester_wallet, verdict, weight, created_at)
         VALUES ($1, $2, $3, 'positive', 1, $4)`,
        [randomUUID(), subject, newWallet().address.toLowerCase(), when],
      );
      for (const status of ['success', 'error']) {
        await sql.query(
          `INSERT INTO invocations (id, caller_wallet, target_agent_id, target_wallet, fee, status, family, created_at)
           VALUES ($1, '0xcaller', $2, '0xowner', 0, $3, 'b', $4)`,
          [randomUUID(), subject, status, when],
        );
      }
    }

    const history = await as(admin.address, true).admin.statsHistory({ days: 3 });
    expect(history.map((row) => row.day)).toEqual([day(2), day(1), day(0)]);
    expect(history).toEqual(await countedDayByDay(3));
    // Two days ago and yesterday: each its first and its last instant; a failed call is not counted.
    expect(history[0]).toMatchObject({ agents: 2, endorsements: 2, attestations: 2, invocations: 2 });
    expect(history[1]).toMatchObject({ agents: 2, endorsements: 2, attestations: 2, invocations: 2 });
    // Today: the registered agent, nothing else.
    expect(history[2]).toMatchObject({ agents: 1, endorsements: 0, attestations: 0, invocations: 0 });

    // A longer range takes in the older rows; a day without any row counts 0.
    const week = await as(admin.address, true).admin.statsHistory({ days: 7 });
    expect(week).toHaveLength(7);
    expect(week).toEqual(await countedDayByDay(7));
    expect(week.reduce((sum, row) => sum + row.endorsements, 0)).toBe(6);
    expect(week.find((row) => row.day === day(5))).toEqual({
      day: day(5),
      agents: 0,
      endorsements: 0,
      attestations: 0,
      invocations: 0,
    });
  });

  it('refuses a wallet that is not an admin (FORBIDDEN) and a visitor (UNAUTHORIZED), and a range past 365 days', async () => {
    const code = (promise: Promise<unknown>) =>
      promise.then(
        () => 'ok',
        (error: unknown) => (error instanceof TRPCError ? error.code : String(error)),
      );
    expect(await code(as(newWallet().address).admin.statsHistory({ days: 3 }))).toBe('FORBIDDEN');
    expect(await code(as(null).admin.statsHistory({ days: 3 }))).toBe('UNAUTHORIZED');
    expect(await code(as(admin.address, true).admin.statsHistory({ days: 366 }))).toBe('BAD_REQUEST');
  });
});
