import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { holdAccount, PLATFORM_FEES, WORLD_GRANTS } from '../server/credits/accounts';
import { transfer } from '../server/credits/ledger';
import { expireStaleSignals } from '../server/signals/expire-signals';
import { finalizeSignalResolutions } from '../server/signals/resolve-signal';
import { startTestApp, type TestApp } from './harness';
import { accountClaw, assertLedgerBalanced, clawBalance, fund } from './money';
import { newWallet, signIn } from './wallets';

const adminAccount = newWallet();
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ ADMIN_WALLETS: adminAccount.address });
});
afterAll(async () => {
  await app.close();
});
afterEach(async () => {
  await assertLedgerBalanced();
});

async function agent(claw = 0, account = newWallet(), options: Parameters<typeof signIn>[2] = {}) {
  const session = await signIn(app, account, options);
  if (claw > 0) await fund(account.address, claw);
  return { account, wallet: account.address, token: session.token };
}

const signalBody = (stake: number, extra: Record<string, unknown> = {}) => ({
  title: 'ETH above 5k by Friday',
  body: 'Funding flips positive, spot ETF inflows',
  signal_type: 'long',
  asset: 'ETH',
  confidence: 72.5,
  stake_claw: stake,
  ...extra,
});

async function publish(publisher: { token: string }, stake = 5, extra: Record<string, unknown> = {}) {
  const response = await app.post('/api/v1/signals', signalBody(stake, extra), { token: publisher.token });
  expect(response.status).toBe(201);
  return response.body.signal_id as string;
}

const stake = (id: string, who: { token: string }, stance: string, amount: number, headers: Record<string, string> = {}) =>
  app.post(`/api/v1/signals/${id}/stake`, { stance, amount_claw: amount }, { token: who.token, headers });

const resolve = (id: string, who: { token: string }, outcome: string, headers: Record<string, string> = {}) =>
  app.post(`/api/v1/signals/${id}/resolve`, { outcome }, { token: who.token, headers });

/** Lets the dispute window of the signal's proposed outcome pass and runs the scheduled finalize job. */
async function windowPasses(id: string) {
  await app.database.sql.query(`UPDATE signals SET dispute_deadline = now() - interval '1 second' WHERE id = $1`, [id]);
  await finalizeSignalResolutions();
}

/** The publisher's resolution (a proposal, answered with the payouts to come), paid once the window passes undisputed. */
async function settle(id: string, publisher: { token: string }, outcome: string) {
  const proposed = await resolve(id, publisher, outcome);
  expect(proposed.status, proposed.text).toBe(200);
  expect(proposed.body).toMatchObject({ resolved: false, status: 'pending_resolution', outcome });
  await windowPasses(id);
  return proposed;
}

describe('publishing and staking', () => {
  it('escrows the publisher’s stake and each backer’s stake, and shows the totals', async () => {
    const publisher = await agent(10);
    const published = await app.post('/api/v1/signals', signalBody(5), { token: publisher.token });
    expect(published.status).toBe(201);
    expect(published.body).toMatchObject({ publisher_wallet: publisher.wallet, stake_claw: 5 });
    const id = published.body.signal_id;
    expect(await clawBalance(publisher.wallet)).toBe(5);
    const a = await agent(10);
    const d = await agent(10);
    const first = await stake(id, a, 'agree', 2);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ signal_id: id, stance: 'agree', amount_claw: 2, total_claw: 2 });
    // a second stake on the same side adds to the first
    const more = await stake(id, a, 'agree', 1.5);
    expect(more.body).toMatchObject({ stake_id: first.body.stake_id, amount_claw: 1.5, total_claw: 3.5 });
    expect((await stake(id, d, 'disagree', 4)).status).toBe(201);
    expect(await accountClaw(holdAccount('signal', id))).toBe(12.5);
    const detail = await app.get(`/api/v1/signals/${id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      status: 'open',
      outcome: null,
      stake_claw: 5,
      agree_claw: 3.5,
      disagree_claw: 4,
      total_staked_claw: 12.5,
      stake_count: 2,
      fee_claw: null,
      confidence: 72.5,
    });
    expect(detail.body.stakes.map((s: any) => [s.staker_wallet, s.stance, s.amount_claw])).toEqual([
      [d.wallet, 'disagree', 4],
      [a.wallet, 'agree', 3.5],
    ]);
  });

  it('ignores fields the spec does not list, as every other endpoint does (publish, stake, resolve)', async () => {
    const publisher = await agent(10);
    const id = await publish(publisher, 5, { timeframe: '1w', tags: ['eth'] });
    const backer = await agent(10);
    const staked = await app.post(
      `/api/v1/signals/${id}/stake`,
      { signal_id: id, stance: 'agree', amount_claw: 1, comment: 'x' },
      { token: backer.token },
    );
    expect(staked.status).toBe(201);
    const resolved = await app.post(
      `/api/v1/signals/${id}/resolve`,
      { signal_id: id, outcome: 'expired', note: 'x' },
      { token: publisher.token },
    );
    expect(resolved.status).toBe(200);
    expect(resolved.body.outcome).toBe('expired');
  });

  it('refuses: stance change (409), own signal (403), below 1 CLAW (400), unknown (404), no balance (402)', async () => {
    const publisher = await agent(10);
    const id = await publish(publisher);
    const backer = await agent(10);
    expect((await stake(id, backer, 'agree', 1)).status).toBe(201);
    const flip = await stake(id, backer, 'disagree', 1);
    expect(flip.status).toBe(409);
    expect(await clawBalance(backer.wallet)).toBe(9);
    expect((await stake(id, publisher, 'agree', 1)).status).toBe(403);
    expect((await stake(id, publisher, 'disagree', 1)).status).toBe(403);
    expect((await stake(id, backer, 'agree', 0.999999)).status).toBe(400);
    expect((await stake(id, backer, 'maybe', 1)).status).toBe(400);
    expect((await stake(crypto.randomUUID(), backer, 'agree', 1)).status).toBe(404);
    const poor = await agent(1);
    const broke = await stake(id, poor, 'agree', 1.000001);
    expect(broke.status).toBe(402);
    expect(await clawBalance(poor.wallet)).toBe(1);
    expect((await app.get(`/api/v1/signals/${id}`)).body.stake_count).toBe(1);
    expect((await app.post(`/api/v1/signals/${id}/stake`, { stance: 'agree', amount_claw: 1 })).status).toBe(401);
  });

  it('refuses a signal below 1 CLAW, with bad fields, or without the balance', async () => {
    const publisher = await agent(3);
    for (const body of [
      signalBody(0.5),
      signalBody(1, { signal_type: 'moon' }),
      signalBody(1, { confidence: 101 }),
      signalBody(1, { confidence: -1 }),
      signalBody(1, { title: '' }),
      signalBody(1, { asset: undefined }),
    ]) {
      expect((await app.post('/api/v1/signals', body, { token: publisher.token })).status, JSON.stringify(body)).toBe(400);
    }
    expect((await app.post('/api/v1/signals', signalBody(3.5), { token: publisher.token })).status).toBe(402);
    expect((await app.post('/api/v1/signals', signalBody(1))).status).toBe(401);
    const reader = await agent(3, newWallet(), { scopes: ['agents.read'] });
    expect((await app.post('/api/v1/signals', signalBody(1), { token: reader.token })).status).toBe(403);
    expect(await clawBalance(publisher.wallet)).toBe(3);
  });
});

describe('resolution', () => {
  it('correct: three agreers of 1 each split a disagreers’ pool of 10 exactly; publisher gets its stake back', async () => {
    const publisher = await agent(5);
    const id = await publish(publisher, 5);
    const agreers = await Promise.all([agent(1), agent(1), agent(1)]);
    const disagreers = await Promise.all([agent(4), agent(6)]);
    for (const a of agreers) expect((await stake(id, a, 'agree', 1)).status).toBe(201);
    await stake(id, disagreers[0]!, 'disagree', 4);
    await stake(id, disagreers[1]!, 'disagree', 6);
    const fees = await accountClaw(PLATFORM_FEES);
    const resolved = await settle(id, publisher, 'correct');
    expect(resolved.body).toMatchObject({ outcome: 'correct', fee_claw: 0.300001 });
    const byWallet = new Map(resolved.body.payouts.map((p: any) => [p.wallet, p]));
    expect(byWallet.get(publisher.wallet)).toEqual({
      wallet: publisher.wallet,
      role: 'publisher',
      staked_claw: 5,
      payout_claw: 5,
    });
    for (const a of agreers) {
      expect(byWallet.get(a.wallet)).toMatchObject({ role: 'agree', staked_claw: 1, payout_claw: 4.233333 });
      expect(await clawBalance(a.wallet)).toBe(4.233333);
    }
    for (const d of disagreers) {
      expect(byWallet.get(d.wallet)).toMatchObject({ role: 'disagree', payout_claw: 0 });
      expect(await clawBalance(d.wallet)).toBe(0);
    }
    expect(await clawBalance(publisher.wallet)).toBe(5);
    expect(await accountClaw(PLATFORM_FEES)).toBeCloseTo(fees + 0.300001, 6);
    expect(await accountClaw(holdAccount('signal', id))).toBe(0);
    const detail = await app.get(`/api/v1/signals/${id}`);
    expect(detail.body).toMatchObject({ status: 'resolved', outcome: 'correct', fee_claw: 0.300001 });
    expect(detail.body.stakes.find((s: any) => s.staker_wallet === agreers[0]!.wallet).payout_claw).toBe(4.233333);
  });

  it('incorrect: disagreers split the agreers’ pool plus the publisher’s stake, 3% fee', async () => {
    const publisher = await agent(4);
    const id = await publish(publisher, 4);
    const agreer = await agent(6);
    const d1 = await agent(1);
    const d3 = await agent(3);
    await stake(id, agreer, 'agree', 6);
    await stake(id, d1, 'disagree', 1);
    await stake(id, d3, 'disagree', 3);
    const resolved = await settle(id, publisher, 'incorrect');
    expect(resolved.body.fee_claw).toBe(0.3);
    expect(await clawBalance(publisher.wallet)).toBe(0);
    expect(await clawBalance(agreer.wallet)).toBe(0);
    expect(await clawBalance(d1.wallet)).toBe(3.425);
    expect(await clawBalance(d3.wallet)).toBe(10.275);
  });

  it('expired: every stake refunded in full, no fee', async () => {
    const publisher = await agent(2);
    const id = await publish(publisher, 2);
    const a = await agent(3);
    const d = await agent(5);
    await stake(id, a, 'agree', 3);
    await stake(id, d, 'disagree', 5);
    const resolved = await settle(id, publisher, 'expired');
    expect(resolved.body).toMatchObject({ outcome: 'expired', fee_claw: 0 });
    expect([await clawBalance(publisher.wallet), await clawBalance(a.wallet), await clawBalance(d.wallet)]).toEqual([2, 3, 5]);
  });

  it('a winning side without stakes refunds everyone', async () => {
    const publisher = await agent(2);
    const id = await publish(publisher, 2);
    const a = await agent(3);
    await stake(id, a, 'agree', 3);
    const resolved = await settle(id, publisher, 'incorrect');
    expect(resolved.body.fee_claw).toBe(0);
    expect([await clawBalance(publisher.wallet), await clawBalance(a.wallet)]).toEqual([2, 3]);
  });

  it('only the publisher or an admin resolves (403); twice is 409 and moves nothing; resolved signals take no stakes', async () => {
    const publisher = await agent(10);
    const id = await publish(publisher, 5);
    const backer = await agent(5);
    await stake(id, backer, 'agree', 5);
    expect((await resolve(id, backer, 'correct')).status).toBe(403);
    expect((await resolve(crypto.randomUUID(), publisher, 'correct')).status).toBe(404);
    expect((await resolve(id, publisher, 'maybe')).status).toBe(400);
    const admin = await agent(0, adminAccount);
    const byAdmin = await resolve(id, admin, 'expired');
    expect(byAdmin.status).toBe(200);
    const before = await app.database.sql.query('SELECT count(*)::int AS n FROM ledger_transactions');
    const again = await resolve(id, publisher, 'correct');
    expect(again.status).toBe(409);
    expect(again.body.details.outcome).toBe('expired');
    expect(await app.database.sql.query('SELECT count(*)::int AS n FROM ledger_transactions')).toEqual(before);
    expect((await stake(id, backer, 'agree', 1)).status).toBe(409);
    expect(await clawBalance(backer.wallet)).toBe(5);
  });

  it('concurrent resolutions pay once', async () => {
    const publisher = await agent(5);
    const id = await publish(publisher, 5);
    const a = await agent(2);
    const d = await agent(2);
    await stake(id, a, 'agree', 2);
    await stake(id, d, 'disagree', 2);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => resolve(id, publisher, i % 2 ? 'correct' : 'incorrect')),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(9);
    await windowPasses(id);
    // several instances finalizing at once still pay once
    await Promise.all([finalizeSignalResolutions(), finalizeSignalResolutions()]);
    const txns = await app.database.sql.query(
      `SELECT id FROM ledger_transactions WHERE ref_id = $1 AND reason LIKE 'signal_%correct'`,
      [id],
    );
    expect(txns).toHaveLength(1);
  });

  it('Idempotency-Key: a repeated stake or resolve returns the first answer and moves money once', async () => {
    const publisher = await agent(5);
    const id = await publish(publisher, 5);
    const a = await agent(10);
    const headers = { 'Idempotency-Key': 'stake-once' };
    const s1 = await stake(id, a, 'agree', 3, headers);
    const s2 = await stake(id, a, 'agree', 3, headers);
    expect(s2.status).toBe(201);
    expect(s2.body).toEqual(s1.body);
    expect(await clawBalance(a.wallet)).toBe(7);
    expect((await stake(id, a, 'agree', 4, headers)).status).toBe(422);
    const r1 = await resolve(id, publisher, 'expired', { 'Idempotency-Key': 'r' });
    const r2 = await resolve(id, publisher, 'expired', { 'Idempotency-Key': 'r' });
    expect(r2.status).toBe(200);
    expect(r2.body).toEqual(r1.body);
    await windowPasses(id);
    expect(await clawBalance(a.wallet)).toBe(10);
  });

  it('pays 1,500 stakers in several balanced ledger transactions inside one resolution', async () => {
    const publisher = await agent(5);
    const id = await publish(publisher, 5);
    // 1,500 stakes of 1 CLAW (every third disagrees), escrowed as the stake endpoint would have
    const wallets = Array.from({ length: 1500 }, (_, i) => `0x${(0xabc000 + i).toString(16).padStart(40, '0')}`);
    await app.database.sql.query(
      `INSERT INTO signal_stakes (id, signal_id, staker_wallet, stance, amount)
       SELECT gen_random_uuid(), $1, w, CASE WHEN n % 3 = 0 THEN 'disagree' ELSE 'agree' END, 1000000
       FROM unnest($2::text[]) WITH ORDINALITY AS v(w, n)`,
      [id, wallets],
    );
    await app.database.sql.query(
      `UPDATE signals SET agree_total = 1000000000, disagree_total = 500000000, stake_count = 1500 WHERE id = $1`,
      [id],
    );
    await transfer(WORLD_GRANTS, holdAccount('signal', id), 1_500_000_000n, { reason: 'test_seed' }, app.database.sql);
    const resolved = await resolve(id, await agent(0, adminAccount), 'correct');
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ resolved: true, status: 'resolved', dispute_deadline: null });
    expect(resolved.body.payouts).toHaveLength(1501);
    // pool 500, fee 15, 485 split over 1,000 agreers = 0.485 each
    expect(resolved.body.fee_claw).toBe(15);
    expect(resolved.body.payouts.filter((p: any) => p.role === 'agree').every((p: any) => p.payout_claw === 1.485)).toBe(true);
    expect(await accountClaw(holdAccount('signal', id))).toBe(0);
    const txns = await app.database.sql.query(
      `SELECT id FROM ledger_transactions WHERE ref_id = $1 AND reason = 'signal_correct'`,
      [id],
    );
    expect(txns).toHaveLength(2);
  });

  it('a signal left open for 90 days expires by itself and refunds every stake', async () => {
    const publisher = await agent(2);
    const id = await publish(publisher, 2);
    const a = await agent(3);
    await stake(id, a, 'agree', 3);
    expect(await expireStaleSignals()).toBe(0);
    await app.database.sql.query(`UPDATE signals SET created_at = now() - interval '91 days' WHERE id = $1`, [id]);
    expect(await expireStaleSignals()).toBe(1);
    expect((await app.get(`/api/v1/signals/${id}`)).body).toMatchObject({ status: 'resolved', outcome: 'expired' });
    expect([await clawBalance(publisher.wallet), await clawBalance(a.wallet)]).toEqual([2, 3]);
  });
});

describe('no outcome is chosen by a party who profits from it', () => {
  /** The attack: a publisher with a second wallet of its own on the disagree side; two strangers agree. */
  async function sockpuppetSetup() {
    const publisher = await agent(1);
    const puppet = await agent(500);
    const victims = [await agent(500), await agent(500)];
    const id = await publish(publisher, 1);
    expect((await stake(id, puppet, 'disagree', 500)).status).toBe(201);
    for (const victim of victims) expect((await stake(id, victim, 'agree', 500)).status).toBe(201);
    const pair = async () => (await clawBalance(publisher.wallet)) + (await clawBalance(puppet.wallet));
    return { publisher, puppet, victims, id, pair };
  }

  it('the publisher’s “incorrect” is only a proposal: a victim disputes, the admin resolves “correct”, the attacker pair ends with no profit', async () => {
    const { publisher, puppet, victims, id, pair } = await sockpuppetSetup();
    const proposed = await resolve(id, publisher, 'incorrect');
    expect(proposed.status).toBe(200);
    // what the attack would have paid: the puppet 500 + (1000 + 1) x 97% = 1470.97
    expect(proposed.body).toMatchObject({ resolved: false, status: 'pending_resolution', outcome: 'incorrect' });
    expect(proposed.body.payouts.find((p: any) => p.wallet === puppet.wallet).payout_claw).toBe(1470.97);
    expect(Date.parse(proposed.body.dispute_deadline)).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    // nothing moved: every stake is still in escrow
    expect(await accountClaw(holdAccount('signal', id))).toBe(1501);
    expect(await pair()).toBe(0);
    expect((await app.get(`/api/v1/signals/${id}`)).body).toMatchObject({
      status: 'pending_resolution',
      proposed_outcome: 'incorrect',
      outcome: null,
    });

    const disputed = await app.post(`/api/v1/signals/${id}/dispute`, {}, { token: victims[0]!.token });
    expect(disputed.status).toBe(200);
    expect(disputed.body).toMatchObject({
      signal_id: id,
      status: 'disputed',
      proposed_outcome: 'incorrect',
      disputed_by: victims[0]!.wallet,
    });
    // a disputed signal is never finalized by the clock
    await windowPasses(id);
    expect((await app.get(`/api/v1/signals/${id}`)).body.status).toBe('disputed');
    expect(await accountClaw(holdAccount('signal', id))).toBe(1501);
    // the publisher cannot settle it itself any more
    expect((await resolve(id, publisher, 'incorrect')).status).toBe(409);

    const admin = await agent(0, adminAccount);
    const decided = await resolve(id, admin, 'correct');
    expect(decided.status).toBe(200);
    expect(decided.body).toMatchObject({ resolved: true, status: 'resolved', outcome: 'correct' });
    // the pair put in 501 and gets back 1 (the publisher's stake): no profit
    expect(await pair()).toBe(1);
    for (const victim of victims) expect(await clawBalance(victim.wallet)).toBe(742.5);
    expect((await app.get(`/api/v1/signals/${id}`)).body).toMatchObject({ status: 'resolved', outcome: 'correct' });
  });

  it('without a dispute the proposal pays only after the dispute window, giving every staker the window to object', async () => {
    const { publisher, puppet, victims, id } = await sockpuppetSetup();
    await resolve(id, publisher, 'incorrect');
    // before the window ends the finalize job pays nothing
    expect(await finalizeSignalResolutions()).toBe(0);
    expect(await clawBalance(puppet.wallet)).toBe(0);
    // stakes are closed while an outcome is proposed
    expect((await stake(id, await agent(5), 'agree', 1)).status).toBe(409);
    await windowPasses(id);
    expect(await clawBalance(puppet.wallet)).toBe(1470.97);
    expect(await clawBalance(victims[0]!.wallet)).toBe(0);
    expect((await app.get(`/api/v1/signals/${id}`)).body).toMatchObject({ status: 'resolved', outcome: 'incorrect' });
    // once resolved there is nothing to dispute
    expect((await app.post(`/api/v1/signals/${id}/dispute`, {}, { token: victims[0]!.token })).status).toBe(409);
  });

  it('dispute refusals: only stakers (403), only a pending proposal within its window (409), once (409)', async () => {
    const { publisher, puppet, victims, id } = await sockpuppetSetup();
    const dispute = (who: { token: string }) => app.post(`/api/v1/signals/${id}/dispute`, {}, { token: who.token });
    expect((await dispute(victims[0]!)).status).toBe(409); // open: nothing proposed yet
    await resolve(id, publisher, 'correct');
    expect((await dispute(publisher)).status).toBe(403);
    expect((await dispute(await agent(0))).status).toBe(403);
    expect((await app.post(`/api/v1/signals/${crypto.randomUUID()}/dispute`, {}, { token: puppet.token })).status).toBe(404);
    await app.database.sql.query(`UPDATE signals SET dispute_deadline = now() - interval '1 second' WHERE id = $1`, [id]);
    const late = await dispute(puppet);
    expect(late.status).toBe(409);
    expect(late.body.error).toContain('window has closed');
    await app.database.sql.query(`UPDATE signals SET dispute_deadline = now() + interval '1 hour' WHERE id = $1`, [id]);
    expect((await dispute(puppet)).status).toBe(200);
    expect((await dispute(victims[1]!)).status).toBe(409);
  });
});

describe('GET /api/v1/signals', () => {
  it('filters by type, sorts newest / most_staked / confidence, pages with total', async () => {
    const publisher = await agent(100);
    const asset = `T${Math.random().toString(36).slice(2, 8)}`;
    const low = await publish(publisher, 1, { signal_type: 'alert', asset, confidence: 10 });
    const big = await publish(publisher, 9, { signal_type: 'alert', asset, confidence: 50 });
    const sure = await publish(publisher, 2, { signal_type: 'alert', asset, confidence: 99 });
    const list = async (query: string) =>
      (await app.get(`/api/v1/signals?signal_type=alert&limit=50${query}`)).body.signals
        .filter((s: any) => s.asset === asset)
        .map((s: any) => s.signal_id);
    expect(await list('')).toEqual([sure, big, low]);
    expect(await list('&sort=most_staked')).toEqual([big, sure, low]);
    expect(await list('&sort=confidence')).toEqual([sure, big, low]);
    const page = await app.get('/api/v1/signals?signal_type=alert&limit=1&offset=1');
    expect(page.status).toBe(200);
    expect(page.body.signals).toHaveLength(1);
    expect(page.body.total).toBeGreaterThanOrEqual(3);
    expect(
      (await app.get('/api/v1/signals?signal_type=long&limit=50')).body.signals.every((s: any) => s.signal_type === 'long'),
    ).toBe(true);
    expect((await app.get('/api/v1/signals')).body.signals.length).toBeLessThanOrEqual(20);
    expect((await app.get('/api/v1/signals?limit=51')).status).toBe(400);
    expect((await app.get('/api/v1/signals?sort=best')).status).toBe(400);
    expect((await app.get('/api/v1/signals/nope')).status).toBe(400);
    expect((await app.get(`/api/v1/signals/${crypto.randomUUID()}`)).status).toBe(404);
  });

  it('totals every type and status exactly from the maintained counters', async () => {
    const publisher = await agent(100);
    const fresh = await publish(publisher, 1, { signal_type: 'short' });
    await publish(publisher, 1, { signal_type: 'neutral' });
    // one expires (resolved, stakes refunded), so two statuses of a type hold signals
    await app.database.sql.query(`UPDATE signals SET created_at = now() - interval '91 days' WHERE id = $1`, [fresh]);
    expect(await expireStaleSignals()).toBeGreaterThanOrEqual(1);
    const rows = await app.database.sql.query<{ signal_type: string; status: string; n: number }>(
      'SELECT signal_type, status, count(*)::int AS n FROM signals GROUP BY signal_type, status',
    );
    const count = (match: (row: { signal_type: string; status: string }) => boolean) =>
      rows.filter(match).reduce((sum, row) => sum + row.n, 0);
    const total = async (query: string) => (await app.get(`/api/v1/signals?limit=1${query}`)).body.total;
    expect(await total('')).toBe(count(() => true));
    for (const type of ['long', 'short', 'alert', 'insight', 'neutral']) {
      expect(await total(`&signal_type=${type}`), type).toBe(count((row) => row.signal_type === type));
      for (const status of ['open', 'resolved']) {
        expect(await total(`&signal_type=${type}&status=${status}`), `${type} ${status}`).toBe(
          count((row) => row.signal_type === type && row.status === status),
        );
      }
    }
    expect(await total('&status=resolved')).toBe(count((row) => row.status === 'resolved'));
    expect(count((row) => row.signal_type === 'short' && row.status === 'resolved')).toBeGreaterThan(0);
  });
});
