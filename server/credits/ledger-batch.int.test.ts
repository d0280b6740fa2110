import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '../core/db';
import { startTestApp, type TestApp } from '../../test/harness';
import { holdAccount, walletAccount, WORLD_GRANTS } from './accounts';
import { InsufficientCreditsError, balanceOf, post, transfer } from './ledger';
import { batchStats } from './ledger-batch';
import { asyncMode, commitProbe } from '../../test/commit-probe';

// Batched posts (ledger-batch.ts): concurrent posts on the same accounts go in one statement, and every
// post still gets its own answer, with balances exact to the micro-CLAW.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const sql = () => database().sql;

async function ledgerSum(): Promise<bigint> {
  const [row] = await sql().query<{ total: string | bigint | null }>('SELECT sum(balance) AS total FROM ledger_accounts');
  const [postings] = await sql().query<{ total: string | bigint | null }>('SELECT sum(amount) AS total FROM ledger_postings');
  expect(BigInt(postings!.total ?? 0)).toBe(0n);
  return BigInt(row!.total ?? 0);
}

async function spentToday(wallet: string): Promise<bigint> {
  const [row] = await sql().query<{ spent: string | bigint }>(
    `SELECT spent FROM daily_spend WHERE wallet = $1 AND day = (now() AT TIME ZONE 'utc')::date`,
    [wallet],
  );
  return row ? BigInt(row.spent) : 0n;
}

/** A batched charge of `amount` from `wallet` into a fresh hold, counted against its day (as an invocation's). */
function charge(wallet: string, amount: bigint, tag: string, limit: bigint | null = null) {
  return post(
    {
      reason: 'invocation_charge',
      refType: 'test',
      refId: tag,
      postings: [
        { account: walletAccount(wallet), amount: -amount },
        { account: holdAccount('batch-test', tag), amount },
      ],
      spend: { wallet, amount, limit },
      batch: true,
    },
    sql(),
  );
}

describe('batched posts', () => {
  it('many concurrent charges on one wallet, some overdrawing: exactly what fits succeeds, the rest is 402', async () => {
    const wallet = '0xBATCHHOT';
    await transfer(WORLD_GRANTS, walletAccount(wallet), 1_000n, { reason: 'grant' }, sql());
    // 200 charges of 7: 142 fit in 1,000 (994), the other 58 are refused.
    const results = await Promise.allSettled(Array.from({ length: 200 }, (_, i) => charge(wallet, 7n, `hot-${i}`)));
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(ok).toHaveLength(142);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(InsufficientCreditsError);
    expect(await balanceOf(walletAccount(wallet), sql())).toBe(6n);
    expect(await spentToday(wallet)).toBe(142n * 7n);
    // Every successful charge has its own transaction and postings, and its hold holds exactly its amount.
    const holds = await sql().query<{ id: string; balance: string | bigint }>(
      `SELECT id, balance FROM ledger_accounts WHERE id LIKE 'hold:batch-test:hot-%'`,
    );
    expect(holds).toHaveLength(142);
    for (const hold of holds) expect(BigInt(hold.balance)).toBe(7n);
    const [txns] = await sql().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ledger_transactions WHERE ref_type = 'test' AND ref_id LIKE 'hot-%'`,
    );
    expect(txns!.n).toBe(142);
    expect(await ledgerSum()).toBe(0n);
    // They went in batches (the overdrawing ones, after their batch was refused, alone).
    expect(batchStats.posts).toBeGreaterThan(batchStats.statements);
    expect(batchStats.fallbacks).toBeGreaterThan(0);
  });

  it('a daily limit holds across a batch: charges past it are 402 daily_limit_exceeded', async () => {
    const wallet = '0xBATCHLIMIT';
    await transfer(WORLD_GRANTS, walletAccount(wallet), 10_000n, { reason: 'grant' }, sql());
    const results = await Promise.allSettled(Array.from({ length: 60 }, (_, i) => charge(wallet, 10n, `limit-${i}`, 250n)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(25);
    for (const r of results.filter((r) => r.status === 'rejected'))
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'daily_limit_exceeded' });
    expect(await balanceOf(walletAccount(wallet), sql())).toBe(10_000n - 250n);
    expect(await spentToday(wallet)).toBe(250n);
  });

  it('charges, payments to a hot payee and refunds of spend interleave exactly (property, fixed seed)', async () => {
    const payee = walletAccount('0xBATCHPAYEE');
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ caller: fc.integer({ min: 0, max: 2 }), amount: fc.bigInt({ min: 1n, max: 40n }), refund: fc.boolean() }),
          {
            minLength: 1,
            maxLength: 60,
          },
        ),
        fc.array(fc.bigInt({ min: 0n, max: 300n }), { minLength: 3, maxLength: 3 }),
        async (calls, grants) => {
          run++;
          const callers = [0, 1, 2].map((i) => `0xBATCHP${run}C${i}`);
          for (const [i, grant] of grants.entries())
            if (grant > 0n) await transfer(WORLD_GRANTS, walletAccount(callers[i]!), grant, { reason: 'grant' }, sql());
          const payeeBefore = await balanceOf(payee, sql());
          // Each call: a batched charge; if it went through, a batched settlement (the payee, or a refund with its spend).
          const outcomes = await Promise.all(
            calls.map(async (c, i) => {
              const wallet = callers[c.caller]!;
              const tag = `p${run}-${i}`;
              try {
                await charge(wallet, c.amount, tag);
              } catch (error) {
                if (error instanceof InsufficientCreditsError) return null;
                throw error;
              }
              await post(
                {
                  reason: c.refund ? 'invocation_refund' : 'invocation_payment',
                  postings: [
                    { account: holdAccount('batch-test', tag), amount: -c.amount },
                    { account: c.refund ? walletAccount(wallet) : payee, amount: c.amount },
                  ],
                  unspend: c.refund ? { wallet, amount: c.amount, day: new Date() } : undefined,
                  batch: true,
                },
                sql(),
              );
              return c;
            }),
          );
          for (const [i, wallet] of callers.entries()) {
            const paid = outcomes.filter((o) => o && o.caller === i && !o.refund).reduce((t, o) => t + o!.amount, 0n);
            expect(await balanceOf(walletAccount(wallet), sql())).toBe(grants[i]! - paid);
            expect(await spentToday(wallet)).toBe(paid);
          }
          const toPayee = outcomes.filter((o) => o && !o.refund).reduce((t, o) => t + o!.amount, 0n);
          expect(await balanceOf(payee, sql())).toBe(payeeBefore + toPayee);
          const [open] = await sql().query<{ total: string | bigint | null }>(
            `SELECT sum(balance) AS total FROM ledger_accounts WHERE id LIKE $1`,
            [`hold:batch-test:p${run}-%`],
          );
          expect(BigInt(open!.total ?? 0)).toBe(0n);
          expect(await ledgerSum()).toBe(0n);
        },
      ),
      { seed: 20261124, numRuns: 25 },
    );
  });
});

describe('asynchronous commits of posts', () => {
  const payment = (tag: string, asyncCommit: boolean, batch: boolean) =>
    post(
      {
        reason: 'invocation_payment',
        refType: 'test',
        refId: tag,
        postings: [
          { account: WORLD_GRANTS, amount: -3n },
          { account: walletAccount(`0xASYNC${tag}`), amount: 3n },
        ],
        asyncCommit,
        batch,
      },
      probe.runner,
    );
  let probe: ReturnType<typeof commitProbe>;

  it('a post that asks for it commits asynchronously; any other durably', async () => {
    probe = commitProbe(sql());
    await payment('single-async', true, false);
    await payment('single-durable', false, false);
    expect(probe.commits).toEqual([asyncMode(database()), 'on']);
    expect(await balanceOf(walletAccount('0xASYNCsingle-async'), sql())).toBe(3n);
  });

  it('a batch commits asynchronously only when every post in it may', async () => {
    probe = commitProbe(sql());
    // Posts submitted in the same turn go as one batch statement.
    const before = batchStats.statements;
    await Promise.all(['a0', 'a1', 'a2', 'a3'].map((tag) => payment(tag, true, true)));
    await Promise.all(['m0', 'm1', 'm2', 'm3'].map((tag, i) => payment(tag, i !== 2, true)));
    expect(batchStats.statements - before).toBe(2);
    expect(probe.commits).toEqual([asyncMode(database()), 'on']);
    for (const tag of ['a1', 'a3', 'm2', 'm3']) expect(await balanceOf(walletAccount(`0xASYNC${tag}`), sql())).toBe(3n);
  });
});
