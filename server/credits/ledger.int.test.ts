import { database, withTransaction } from '../core/db';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness';
import { holdAccount, PLATFORM_FEES, walletAccount, WORLD_GRANTS } from './accounts';
import { InsufficientCreditsError, post, splitPostings, transfer } from './ledger';
import { PAYEES_PER_TRANSACTION, releaseHold } from './release-hold';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const WALLETS = ['0xA', '0xB', '0xC', '0xD'].map((w) => walletAccount(w));

type Op =
  | { kind: 'grant'; to: number; amount: bigint }
  | { kind: 'transfer'; from: number; to: number; amount: bigint }
  | { kind: 'hold'; from: number; amount: bigint }
  | { kind: 'release'; to: number }
  | { kind: 'refund' }
  | { kind: 'split'; shares: number[]; feeBps: bigint };

const amount = fc.bigInt({ min: 1n, max: 50_000_000n });
const who = fc.integer({ min: 0, max: WALLETS.length - 1 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('grant' as const), to: who, amount }),
  fc.record({ kind: fc.constant('transfer' as const), from: who, to: who, amount }),
  fc.record({ kind: fc.constant('hold' as const), from: who, amount }),
  fc.record({ kind: fc.constant('release' as const), to: who }),
  fc.record({ kind: fc.constant('refund' as const) }),
  fc.record({
    kind: fc.constant('split' as const),
    shares: fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 4 }),
    feeBps: fc.bigInt({ min: 0n, max: 1000n }),
  }),
);

async function balances(): Promise<Map<string, { balance: bigint; allowNegative: boolean }>> {
  const rows = await app.database.sql.query<{ id: string; balance: string | bigint; allow_negative: boolean }>(
    'SELECT id, balance, allow_negative FROM ledger_accounts',
  );
  return new Map(rows.map((r) => [r.id, { balance: BigInt(r.balance), allowNegative: r.allow_negative }]));
}

describe('ledger invariants (property test, fixed seeds)', () => {
  it('keeps every account summing to zero and no agent balance below zero after every step', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 25 }), async (ops) => {
        run++;
        // Holds live per run; an open hold is what escrow looks like between steps.
        const holds: { account: string; from: string; amount: bigint }[] = [];
        for (const [step, o] of ops.entries()) {
          try {
            if (o.kind === 'grant') await transfer(WORLD_GRANTS, WALLETS[o.to]!, o.amount, { reason: 'grant' }, database().sql);
            if (o.kind === 'transfer')
              await transfer(WALLETS[o.from]!, WALLETS[o.to]!, o.amount, { reason: 'transfer' }, database().sql);
            if (o.kind === 'hold') {
              const account = holdAccount('test', `${run}-${step}`);
              await transfer(WALLETS[o.from]!, account, o.amount, { reason: 'hold' }, database().sql);
              holds.push({ account, from: WALLETS[o.from]!, amount: o.amount });
            }
            if (o.kind === 'release' && holds.length) {
              const hold = holds.shift()!;
              await transfer(hold.account, WALLETS[o.to]!, hold.amount, { reason: 'release' }, database().sql);
            }
            if (o.kind === 'refund' && holds.length) {
              const hold = holds.pop()!;
              await transfer(hold.account, hold.from, hold.amount, { reason: 'refund' }, database().sql);
            }
            if (o.kind === 'split' && holds.length) {
              const hold = holds.shift()!;
              const postings = splitPostings(
                hold.account,
                hold.amount,
                o.shares.map((weight, i) => ({ account: WALLETS[i % WALLETS.length]!, weight: BigInt(weight) })),
                { account: PLATFORM_FEES, bps: o.feeBps },
                hold.from,
              );
              expect(postings.reduce((t, p) => t + p.amount, 0n)).toBe(0n);
              await post({ reason: 'split', postings: postings.filter((p) => p.amount !== 0n) }, database().sql);
            }
          } catch (error) {
            // An overdraft is refused as a whole, which is the point.
            if (!(error instanceof InsufficientCreditsError)) throw error;
          }
          const all = await balances();
          let sum = 0n;
          for (const [id, { balance, allowNegative }] of all) {
            sum += balance;
            if (!allowNegative) expect(balance, id).toBeGreaterThanOrEqual(0n);
          }
          expect(sum).toBe(0n);
        }
        const postingsSum = await app.database.sql.query<{ total: string | bigint | null }>(
          'SELECT sum(amount) AS total FROM ledger_postings',
        );
        expect(BigInt(postingsSum[0]!.total ?? 0)).toBe(0n);
      }),
      { seed: 20261121, numRuns: 40 },
    );
  });
});

describe('ledger primitives', () => {
  it('refuses an unbalanced transaction before touching the database', async () => {
    await expect(
      post(
        {
          reason: 'bad',
          postings: [
            { account: WALLETS[0]!, amount: 5n },
            { account: WORLD_GRANTS, amount: -4n },
          ],
        },
        database().sql,
      ),
    ).rejects.toThrow('sum to zero');
  });

  it('applies an idempotency key once, even concurrently', async () => {
    const to = walletAccount('0xIDEM');
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        transfer(WORLD_GRANTS, to, 7n, { reason: 'grant', idempotencyKey: 'once-only' }, database().sql),
      ),
    );
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    expect((await balances()).get(to)!.balance).toBe(7n);
  });

  it('a wallet whose first debit or credit rolled back still answers 402 on a later debit, never 500', async () => {
    const refused = walletAccount('0xROLLEDBACKDEBIT');
    await expect(
      withTransaction((tx) => transfer(refused, PLATFORM_FEES, 5n, { reason: 'spend' }, tx.sql)),
    ).rejects.toBeInstanceOf(InsufficientCreditsError);
    await expect(transfer(refused, PLATFORM_FEES, 5n, { reason: 'spend' }, database().sql)).rejects.toBeInstanceOf(
      InsufficientCreditsError,
    );
    const undone = walletAccount('0xROLLEDBACKGRANT');
    await expect(
      withTransaction(async (tx) => {
        await transfer(WORLD_GRANTS, undone, 9n, { reason: 'grant' }, tx.sql);
        throw new Error('the rest of the transaction failed');
      }),
    ).rejects.toThrow('the rest of the transaction failed');
    expect((await balances()).has(undone)).toBe(false);
    await expect(transfer(undone, PLATFORM_FEES, 1n, { reason: 'spend' }, database().sql)).rejects.toBeInstanceOf(
      InsufficientCreditsError,
    );
    // World accounts may go negative: a first debit creates the account.
    await transfer('world:test-rollback', undone, 3n, { reason: 'grant' }, database().sql);
    expect((await balances()).get(undone)!.balance).toBe(3n);
  });

  it('splits with a fee so that the parts add up exactly', () => {
    const postings = splitPostings(
      'pool:x',
      1_000_001n,
      [
        { account: 'wallet:1', weight: 1n },
        { account: 'wallet:2', weight: 1n },
        { account: 'wallet:3', weight: 1n },
      ],
      { account: PLATFORM_FEES, bps: 300n },
      'wallet:1',
    );
    expect(postings.reduce((t, p) => t + p.amount, 0n)).toBe(0n);
    // 3% of 1,000,001 is 30,000.03: fees round up (never fee-free), the shares take the rest.
    expect(postings.find((p) => p.account === PLATFORM_FEES)!.amount).toBe(30_001n);
  });

  it('never overdraws one hot account under 100 concurrent spends', async () => {
    const hot = walletAccount('0xHOT');
    await transfer(WORLD_GRANTS, hot, 30n, { reason: 'grant' }, database().sql);
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) =>
        transfer(hot, holdAccount('hot', String(i)), 1n, { reason: 'spend' }, database().sql),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(30);
    expect(
      results
        .filter((r) => r.status === 'rejected')
        .every((r) => (r as PromiseRejectedResult).reason instanceof InsufficientCreditsError),
    ).toBe(true);
    expect((await balances()).get(hot)!.balance).toBe(0n);
  });
});

describe('releaseHold', () => {
  async function postingsOf(refId: string) {
    return app.database.sql.query<{ reason: string; ref_type: string; account_id: string; amount: string }>(
      `SELECT t.reason, t.ref_type, p.account_id, p.amount::text AS amount
       FROM ledger_transactions t JOIN ledger_postings p ON p.transaction_id = t.id
       WHERE t.ref_id = $1 ORDER BY t.created_at, p.account_id`,
      [refId],
    );
  }

  it('moves exactly what the payees receive out of the hold, leaves zero payees out, refunds spend and applies a key once', async () => {
    const hold = holdAccount('release-test', 'a');
    const payer = '0xRELEASEPAYER';
    await transfer(WORLD_GRANTS, hold, 10n, { reason: 'grant' }, database().sql);
    await app.database.sql.query(
      `INSERT INTO daily_spend (wallet, day, spent) VALUES ($1, (now() AT TIME ZONE 'utc')::date, 10)`,
      [payer],
    );
    const input = {
      hold: { type: 'release-test', id: 'a' },
      to: [
        { account: walletAccount(payer), amount: 7n },
        { account: walletAccount('0xNOBODY'), amount: 0n },
        { account: PLATFORM_FEES, amount: 2n },
      ],
      reason: 'test_release',
      ref: { type: 'release-test', id: 'a' },
      idempotencyKey: 'release-test:a',
      refundsSpendOf: { wallet: payer, day: new Date() },
    };
    const first = await releaseHold(input, database().sql);
    expect(first).toMatchObject({ applied: true, released: 9n });
    expect(await postingsOf('a')).toEqual([
      { reason: 'test_release', ref_type: 'release-test', account_id: hold, amount: '-9' },
      { reason: 'test_release', ref_type: 'release-test', account_id: PLATFORM_FEES, amount: '2' },
      { reason: 'test_release', ref_type: 'release-test', account_id: walletAccount(payer), amount: '7' },
    ]);
    const [spend] = await app.database.sql.query<{ spent: string }>(
      'SELECT spent::text AS spent FROM daily_spend WHERE wallet = $1',
      [payer],
    );
    expect(spend!.spent).toBe('1');
    expect((await releaseHold(input, database().sql)).applied).toBe(false);
    const after = await balances();
    expect(after.get(hold)!.balance).toBe(1n);
    expect(after.has(walletAccount('0xNOBODY'))).toBe(false);
  });

  it('refuses to release more than the hold has (402), and nothing of alongside happens', async () => {
    const hold = holdAccount('release-test', 'b');
    await transfer(WORLD_GRANTS, hold, 5n, { reason: 'grant' }, database().sql);
    await expect(
      releaseHold(
        {
          hold: { type: 'release-test', id: 'b' },
          to: [{ account: walletAccount('0xGREEDY'), amount: 6n }],
          reason: 'test_release',
          ref: { type: 'release-test', id: 'b' },
          alongside: () => [`marker AS (INSERT INTO used_signatures (key) SELECT 'release-test-b' FROM txn RETURNING 1)`],
        },
        database().sql,
      ),
    ).rejects.toBeInstanceOf(InsufficientCreditsError);
    expect((await balances()).get(hold)!.balance).toBe(5n);
    expect(await app.database.sql.query(`SELECT 1 FROM used_signatures WHERE key = 'release-test-b'`)).toHaveLength(0);
  });

  it(`pays more than ${PAYEES_PER_TRANSACTION} payees in several balanced transactions`, async () => {
    const count = PAYEES_PER_TRANSACTION + 1;
    const hold = holdAccount('release-test', 'c');
    await transfer(WORLD_GRANTS, hold, BigInt(count), { reason: 'grant' }, database().sql);
    const to = Array.from({ length: count }, (_, i) => ({ account: walletAccount(`0xMANY${i}`), amount: 1n }));
    const result = await withTransaction((tx) =>
      releaseHold(
        { hold: { type: 'release-test', id: 'c' }, to, reason: 'test_release', ref: { type: 'release-test', id: 'c' } },
        tx.sql,
      ),
    );
    expect(result.released).toBe(BigInt(count));
    const rows = await app.database.sql.query<{ postings: number; hold: string }>(
      `SELECT count(*)::int AS postings, sum(p.amount) FILTER (WHERE p.account_id = $2)::text AS hold
       FROM ledger_transactions t JOIN ledger_postings p ON p.transaction_id = t.id WHERE t.ref_id = $1
       GROUP BY t.id ORDER BY count(*) DESC`,
      ['c', hold],
    );
    expect(rows).toEqual([
      { postings: PAYEES_PER_TRANSACTION + 1, hold: `-${PAYEES_PER_TRANSACTION}` },
      { postings: 2, hold: '-1' },
    ]);
    expect((await balances()).get(hold)!.balance).toBe(0n);
    await expect(
      releaseHold(
        { hold: { type: 'release-test', id: 'c' }, to, reason: 'x', ref: { type: 'release-test', id: 'c' }, idempotencyKey: 'k' },
        database().sql,
      ),
    ).rejects.toThrow('takes no idempotency key');
  });
});
