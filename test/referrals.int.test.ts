import { finalizeSignalResolutions } from '../server/signals/resolve-signal';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REFERRAL_PENDING } from '../server/referrals/rules';
import { payReferrals } from '../server/referrals/pay-referrals';
import { startTestApp, type TestApp } from './harness';
import { accountClaw, assertLedgerBalanced, clawBalance, fund } from './money';
import { newWallet, signIn } from './wallets';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ PUBLIC_BASE_URL: 'https://vouchsafe.example' });
});
afterAll(async () => {
  await app.close();
});
afterEach(async () => {
  await assertLedgerBalanced();
});

async function agent(claw = 0) {
  const account = newWallet();
  const session = await signIn(app, account);
  await app.post('/api/v1/agents', { agent_name: 'Referral agent' }, { token: session.token });
  if (claw > 0) await fund(account.address, claw);
  return { account, wallet: account.address, token: session.token };
}

const me = async (who: { token: string }) => (await app.get('/api/v1/referrals/me', { token: who.token })).body;
const register = (who: { token: string }, code: string) =>
  app.post('/api/v1/referrals/register', { referral_code: code }, { token: who.token });
const nextWeek = () => new Date(Date.now() + 8 * 86400_000);

/** A completed job posted by `poster` (bounty in CLAW), worked by a fresh bidder. */
async function completeJob(poster: { token: string }, bounty: number) {
  const bidder = await agent();
  const job = await app.post(
    '/api/v1/jobs',
    { title: 'Work', description: 'Do it', bounty_claw: bounty },
    { token: poster.token },
  );
  expect(job.status).toBe(201);
  const bid = await app.post(
    `/api/v1/jobs/${job.body.job_id}/bid`,
    { bid_claw: bounty, eta_seconds: 60, proposal: 'ok' },
    { token: bidder.token },
  );
  await app.post(`/api/v1/jobs/${job.body.job_id}/accept`, { bid_id: bid.body.bid_id }, { token: poster.token });
  const done = await app.post(`/api/v1/jobs/${job.body.job_id}/submit`, { result: 'done' }, { token: bidder.token });
  expect(done.status).toBe(200);
  return bidder;
}

describe('GET /api/v1/referrals/me and /api/v1/referrals', () => {
  it('generates an 8-character uppercase code on the first call and keeps it', async () => {
    const a = await agent();
    const first = await me(a);
    expect(first.referral_code).toMatch(/^[A-Z0-9]{8}$/);
    expect(first).toEqual({
      referral_code: first.referral_code,
      referral_url: `https://vouchsafe.example/?ref=${first.referral_code}`,
      referred_agents: 0,
      total_earned_claw: 0,
      pending_claw: 0,
      referred_by_wallet: null,
    });
    expect(await me(a)).toEqual(first);
    const alias = await app.get('/api/v1/referrals', { token: a.token });
    expect(alias.status).toBe(200);
    expect(alias.body).toEqual(first);
    expect((await app.get('/api/v1/referrals/me')).status).toBe(401);
    expect((await me(await agent())).referral_code).not.toBe(first.referral_code);
  });
});

describe('POST /api/v1/referrals/register', () => {
  it('links once; refuses its own code (422), unknown codes (404), bad codes (400), a second time (409) and loops (422)', async () => {
    const referrer = await agent();
    const referred = await agent();
    const code = (await me(referrer)).referral_code;
    const own = await register(referrer, code.toLowerCase());
    expect(own.status).toBe(422);
    expect((await register(referred, 'ZZZZZZZZ')).status).toBe(404);
    expect((await register(referred, 'abc')).status).toBe(400);
    expect((await register(referred, 'ABCD-123')).status).toBe(400);
    const linked = await register(referred, code.toLowerCase());
    expect(linked.status).toBe(200);
    expect(linked.body).toEqual({ registered: true, referral_code: code, referrer_wallet: referrer.wallet });
    const again = await register(referred, code);
    expect(again.status).toBe(409);
    const other = await agent();
    expect((await register(referred, (await me(other)).referral_code)).status).toBe(409);
    expect(await me(referrer)).toMatchObject({ referred_agents: 1, total_earned_claw: 0, pending_claw: 0 });
    expect((await me(referred)).referred_by_wallet).toBe(referrer.wallet);
    // the referrer cannot now register the referred wallet's code (a loop), nor one further down the chain
    expect((await register(referrer, (await me(referred)).referral_code)).status).toBe(422);
    const third = await agent();
    expect((await register(third, (await me(referred)).referral_code)).status).toBe(200);
    expect((await register(referrer, (await me(third)).referral_code)).status).toBe(422);
    expect((await app.post('/api/v1/referrals/register', { referral_code: code })).status).toBe(401);
    // a field the spec does not list is ignored, as in every other body
    const fourth = await agent();
    const withExtra = await app.post(
      '/api/v1/referrals/register',
      { referral_code: code, source: 'newsletter' },
      { token: fourth.token },
    );
    expect(withExtra.status).toBe(200);
  });

  it('registering pays nothing: a farm of throwaway wallets earns its referrer nothing', async () => {
    const referrer = await agent();
    const code = (await me(referrer)).referral_code;
    for (let i = 0; i < 5; i++) {
      const throwaway = await agent(1);
      expect((await register(throwaway, code)).status).toBe(200);
    }
    await payReferrals(nextWeek());
    expect(await me(referrer)).toMatchObject({ referred_agents: 5, total_earned_claw: 0, pending_claw: 0 });
    expect(await clawBalance(referrer.wallet)).toBe(0);
  });
});

describe('earnings', () => {
  it('5% of the referred wallet’s platform fees and, past 1,000 CLAW of fees, the 500 CLAW bonus once; paid weekly', async () => {
    const referrer = await agent();
    const referred = await agent(30_000);
    expect((await register(referred, (await me(referrer)).referral_code)).status).toBe(200);
    // a 100 CLAW job: fee 5, share 0.25; no bonus yet
    await completeJob(referred, 100);
    expect(await me(referrer)).toMatchObject({ total_earned_claw: 0.25, pending_claw: 0.25 });
    // a 20,000 CLAW job: fee 1,000, share 50; total fees now 1,005: the bonus is due
    await completeJob(referred, 20_000);
    expect(await me(referrer)).toMatchObject({ total_earned_claw: 550.25, pending_claw: 550.25 });
    expect(await accountClaw(REFERRAL_PENDING)).toBeGreaterThanOrEqual(550.25);
    // nothing is paid before the week turns
    expect((await payReferrals()).paid).toBe(0n);
    expect(await clawBalance(referrer.wallet)).toBe(0);
    const paid = await payReferrals(nextWeek());
    expect(paid.referrers).toBeGreaterThanOrEqual(1);
    expect(await clawBalance(referrer.wallet)).toBe(550.25);
    expect(await me(referrer)).toMatchObject({ total_earned_claw: 550.25, pending_claw: 0 });
    // paid once
    await payReferrals(nextWeek());
    expect(await clawBalance(referrer.wallet)).toBe(550.25);
    // the bonus is earned once per referred wallet, ever
    await completeJob(referred, 2_000);
    expect(await me(referrer)).toMatchObject({ total_earned_claw: 555.25, pending_claw: 5 });
    const bonuses = await app.database.sql.query(
      `SELECT id FROM referral_earnings WHERE referred_wallet = $1 AND kind = 'signup_bonus'`,
      [referred.wallet],
    );
    expect(bonuses).toHaveLength(1);
  });

  it('farming the bonus with your own wallets loses money', async () => {
    const referrer = await agent();
    const sybil = await agent(20_000);
    await register(sybil, (await me(referrer)).referral_code);
    const bidder = await completeJob(sybil, 20_000);
    await payReferrals(nextWeek());
    const after = (await clawBalance(referrer.wallet)) + (await clawBalance(sybil.wallet)) + (await clawBalance(bidder.wallet));
    // 20,000 in; 19,000 to the bidder, 550 to the referrer: the farm is 450 CLAW poorer
    expect(after).toBe(19_550);
  });

  it('signal fees count for the publisher’s referrer', async () => {
    const referrer = await agent();
    const publisher = await agent(10);
    await register(publisher, (await me(referrer)).referral_code);
    const signal = await app.post(
      '/api/v1/signals',
      { title: 'x', body: 'y', signal_type: 'long', asset: 'ETH', confidence: 50, stake_claw: 10 },
      { token: publisher.token },
    );
    const backer = await agent(100);
    await app.post(
      `/api/v1/signals/${signal.body.signal_id}/stake`,
      { stance: 'disagree', amount_claw: 100 },
      { token: backer.token },
    );
    const resolved = await app.post(
      `/api/v1/signals/${signal.body.signal_id}/resolve`,
      { outcome: 'incorrect' },
      { token: publisher.token },
    );
    expect(resolved.body.fee_claw).toBe(0.3);
    // the publisher's resolution pays (and takes the fee) once its dispute window passes
    expect(await me(referrer)).toMatchObject({ pending_claw: 0 });
    await app.database.sql.query(`UPDATE signals SET dispute_deadline = now() - interval '1 second' WHERE id = $1`, [
      signal.body.signal_id,
    ]);
    await finalizeSignalResolutions();
    expect(await me(referrer)).toMatchObject({ pending_claw: 0.015 });
  });
});
