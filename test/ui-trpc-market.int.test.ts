// The market's tRPC procedures (jobs, signals, leaderboard) over the same services as the REST API:
// the session gate, the REST status of every refusal, money through the ledger, and the REST view of
// what a procedure did. (Browser flows: e2e/ui/market.spec.ts.)
import { TRPCError } from '@trpc/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../server/trpc/router';
import { startTestApp, type TestApp } from './harness';
import { assertLedgerBalanced, clawBalance, fund } from './money';
import { registerAgent } from './wallets';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
afterEach(() => assertLedgerBalanced());

const as = (wallet: `0x${string}` | null) => appRouter.createCaller({ wallet, isAdmin: false, clientIp: '127.0.0.1' });

async function refusal(promise: Promise<unknown>): Promise<{ code: string; status?: number } | 'ok'> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    const status = (error.cause as { status?: number } | undefined)?.status;
    return { code: error.code, status };
  }
}

async function member(claw = 0) {
  const { account, response } = await registerAgent(app);
  if (claw > 0) await fund(account.address, claw);
  return { wallet: account.address, agentId: response.body.id as string, trpc: as(account.address) };
}

const jobInput = (bounty: number, title = 'Audit a vault') => ({
  title,
  description: 'Look for reentrancy and rounding issues.',
  required_skill: 'solidity-audit',
  bounty_claw: bounty,
});

describe('jobs', () => {
  it('signed-out callers may read but not act', async () => {
    expect(await refusal(as(null).jobs.list({}))).toBe('ok');
    expect(await refusal(as(null).jobs.post(jobInput(5)))).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(
      await refusal(as(null).jobs.bid({ id: crypto.randomUUID(), bid: { bid_claw: 1, eta_seconds: 60, proposal: 'x' } })),
    ).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('post, bid, accept, submit: escrow and payout as REST does; each refusal keeps its REST status', async () => {
    const poster = await member(50);
    const bidder = await member();
    expect(await refusal(poster.trpc.jobs.post(jobInput(80)))).toMatchObject({ code: 'PAYMENT_REQUIRED', status: 402 });
    const posted = await poster.trpc.jobs.post(jobInput(30, 'Audit the tRPC vault'));
    expect(posted).toMatchObject({ status: 'open', bounty_claw: 30, requested_by_wallet: poster.wallet });
    expect(await clawBalance(poster.wallet)).toBe(20);
    const listed = await as(null).jobs.list({ q: 'tRPC vault', status: 'open' });
    expect(listed.jobs.map((j) => j.job_id)).toEqual([posted.job_id]);
    expect((await as(null).jobs.list({ skill: 'SOLIDITY-AUDIT' })).total).toBeGreaterThanOrEqual(1);

    const id = posted.job_id;
    const bidInput = { bid_claw: 25, eta_seconds: 3600, proposal: 'Two hours' };
    expect(await refusal(poster.trpc.jobs.bid({ id, bid: bidInput }))).toMatchObject({ code: 'FORBIDDEN', status: 403 });
    expect(await refusal(bidder.trpc.jobs.bid({ id, bid: { ...bidInput, bid_claw: 31 } }))).toMatchObject({ status: 422 });
    const bid = await bidder.trpc.jobs.bid({ id, bid: bidInput });
    expect(await refusal(bidder.trpc.jobs.bid({ id, bid: bidInput }))).toMatchObject({ code: 'CONFLICT', status: 409 });
    expect(await refusal(bidder.trpc.jobs.accept({ id, accept: { bid_id: bid.bid_id } }))).toMatchObject({ status: 403 });
    expect(await refusal(bidder.trpc.jobs.submit({ id, submit: { result: { ok: true } } }))).toMatchObject({ status: 409 });
    await poster.trpc.jobs.accept({ id, accept: { bid_id: bid.bid_id } });
    expect(await refusal(poster.trpc.jobs.submit({ id, submit: { result: 'mine' } }))).toMatchObject({ status: 403 });
    const done = await bidder.trpc.jobs.submit({ id, submit: { result: { findings: [] } } });
    expect(done).toMatchObject({ status: 'completed', paid_claw: 28.5, fee_claw: 1.5 });
    expect(await clawBalance(bidder.wallet)).toBe(28.5);

    // The result only for the poster and the winner, through tRPC as through REST.
    expect((await poster.trpc.jobs.get({ id })).result).toEqual({ findings: [] });
    expect((await as(null).jobs.get({ id })).result).toBeNull();
    const rest = await app.get(`/api/v1/jobs/${id}`);
    expect(rest.body).toMatchObject({ status: 'completed', accepted_bid_id: bid.bid_id });
    expect(await refusal(as(null).jobs.get({ id: crypto.randomUUID() }))).toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });
});

describe('signals', () => {
  it('publish and stake move CLAW into escrow; totals, filters and refusals match REST', async () => {
    const publisher = await member(10);
    const backer = await member(10);
    const broke = await member();
    const input = {
      title: 'ETH over 5k',
      body: 'Momentum.',
      signal_type: 'long' as const,
      asset: 'ETH',
      confidence: 75,
      stake_claw: 4,
    };
    expect(await refusal(as(null).signals.publish(input))).toMatchObject({ code: 'UNAUTHORIZED' });
    const published = await publisher.trpc.signals.publish(input);
    expect(await clawBalance(publisher.wallet)).toBe(6);
    const id = published.signal_id;
    expect(await refusal(publisher.trpc.signals.stake({ id, stake: { stance: 'agree', amount_claw: 1 } }))).toMatchObject({
      status: 403,
    });
    expect(await refusal(broke.trpc.signals.stake({ id, stake: { stance: 'agree', amount_claw: 1 } }))).toMatchObject({
      status: 402,
    });
    await backer.trpc.signals.stake({ id, stake: { stance: 'disagree', amount_claw: 3 } });
    expect(await refusal(backer.trpc.signals.stake({ id, stake: { stance: 'agree', amount_claw: 1 } }))).toMatchObject({
      status: 409,
    });
    const list = await as(null).signals.list({ signalType: 'long', sort: 'most_staked' });
    expect(list.signals.find((s) => s.signal_id === id)).toMatchObject({
      agree_claw: 0,
      disagree_claw: 3,
      total_staked_claw: 7,
      stake_count: 1,
      status: 'open',
    });
    expect((await as(null).signals.list({ signalType: 'short' })).signals.some((s) => s.signal_id === id)).toBe(false);
    expect((await app.get(`/api/v1/signals/${id}`)).body).toMatchObject({ disagree_claw: 3, total_staked_claw: 7 });
    expect(await as(null).signals.get({ id })).toMatchObject({ stakes: [expect.objectContaining({ stance: 'disagree' })] });
  });
});

describe('leaderboard', () => {
  it('ranks as the REST endpoint does and adds the id and handle of the wallet’s oldest agent', async () => {
    const publisher = await member(10);
    await publisher.trpc.signals.publish({
      title: 'Leaderboard signal',
      body: 'x',
      signal_type: 'insight',
      asset: 'BTC',
      confidence: 50,
      stake_claw: 1,
    });
    const board = await as(null).leaderboard.list({ sort: 'signals', limit: 100 });
    const rest = await app.get('/api/v1/agents/leaderboard?sort=signals&limit=100');
    expect(board.agents.map(({ agent_id: _id, handle: _handle, ...row }) => row)).toEqual(rest.body.agents);
    const row = board.agents.find((r) => r.wallet === publisher.wallet);
    expect(row).toMatchObject({ agent_id: publisher.agentId, signals_published: 1, score: 10 });
    expect(row!.handle).toBeTruthy();
  });
});
