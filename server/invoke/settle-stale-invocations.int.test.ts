import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness';
import { clawBalance, fund } from '../../test/money';
import { holdAccount, walletAccount } from '../credits/accounts';
import { transfer } from '../credits/ledger';
import { database, db } from '../core/db';
import { settleStaleInvocations } from './settle-stale-invocations';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** An invocation charged into escrow by a router that then stopped. */
async function strandedInvocation(caller: string, target: string, fee: bigint, ageMs: number) {
  const id = randomUUID();
  await transfer(
    walletAccount(caller),
    holdAccount('invocation', id),
    fee,
    {
      reason: 'invocation_charge',
      refType: 'invocation',
      refId: id,
    },
    database().sql,
  );
  await db().invocation.create({
    data: {
      id,
      callerWallet: caller,
      targetAgentId: randomUUID(),
      targetWallet: target,
      fee,
      status: 'pending',
      family: 'b',
      createdAt: new Date(Date.now() - ageMs),
    },
  });
  return id;
}

describe('settleStaleInvocations', () => {
  it('refunds what is still in escrow once, and leaves recent calls alone', async () => {
    const caller = '0x' + 'c'.repeat(40);
    await fund(caller, 10);
    const stale = await strandedInvocation(caller, '0x' + 'd'.repeat(40), 3_000_000n, 120_000);
    const recent = await strandedInvocation(caller, '0x' + 'd'.repeat(40), 1_000_000n, 1_000);
    expect(await clawBalance(caller)).toBe(6);
    expect(await settleStaleInvocations(60_000)).toBe(1);
    expect(await clawBalance(caller)).toBe(9);
    expect((await db().invocation.findUnique({ where: { id: stale } }))!.status).toBe('error');
    expect((await db().invocation.findUnique({ where: { id: recent } }))!.status).toBe('pending');
    expect(await settleStaleInvocations(60_000)).toBe(0);
    expect(await clawBalance(caller)).toBe(9);
  });

  it('does not refund a call that was paid out before the router stopped', async () => {
    const caller = '0x' + 'e'.repeat(40);
    const owner = '0x' + 'f'.repeat(40);
    await fund(caller, 2);
    const id = await strandedInvocation(caller, owner, 2_000_000n, 120_000);
    await transfer(
      holdAccount('invocation', id),
      walletAccount(owner),
      2_000_000n,
      { reason: 'invocation_payment' },
      database().sql,
    );
    await settleStaleInvocations(60_000);
    expect(await clawBalance(caller)).toBe(0);
    expect(await clawBalance(owner)).toBe(2);
  });
});
