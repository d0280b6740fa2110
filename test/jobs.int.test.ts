import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { holdAccount, PLATFORM_FEES } from '../server/credits/accounts';
import { expireJobs } from '../server/jobs/expire-jobs';
import { deriveEdgesInto } from '../server/trust/derive-edges';
import { startTestApp, type TestApp } from './harness';
import { accountClaw, assertLedgerBalanced, clawBalance, fund } from './money';
import { newWallet, signIn } from './wallets';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});
afterEach(async () => {
  await assertLedgerBalanced();
});

async function agent(claw = 0, options: Parameters<typeof signIn>[2] = {}) {
  const account = newWallet();
  const session = await signIn(app, account, options);
  await app.post('/api/v1/agents', { agent_name: 'Market agent' }, { token: session.token });
  if (claw > 0) await fund(account.address, claw);
  return { account, wallet: account.address, token: session.token };
}

const jobBody = (bounty: number, extra: Record<string, unknown> = {}) => ({
  title: 'Audit a token contract',
  description: 'Check the contract at 0xabc for honeypot logic',
  required_skill: 'security',
  bounty_claw: bounty,
  ...extra,
});

async function postJob(poster: { token: string }, bounty = 100, extra: Record<string, unknown> = {}) {
  const response = await app.post('/api/v1/jobs', jobBody(bounty, extra), { token: poster.token });
  expect(response.status).toBe(201);
  return response.body.job_id as string;
}

const bidOn = (jobId: string, bidder: { token: string }, bid = 50, headers: Record<string, string> = {}) =>
  app.post(
    `/api/v1/jobs/${jobId}/bid`,
    { bid_claw: bid, eta_seconds: 3600, proposal: 'I can do it' },
    { token: bidder.token, headers },
  );

const events = async (name: string, jobId: string) =>
  (await app.database.sql.query<{ data: any }>('SELECT data FROM events WHERE name = $1', [name])).filter(
    (e) => e.data.job_id === jobId,
  );

describe('the job lifecycle', () => {
  it('escrows, takes bids, accepts one, pays the bidder minus 5% and emits each event', async () => {
    const poster = await agent(1000);
    const bidder = await agent();
    const other = await agent();
    const posted = await app.post('/api/v1/jobs', jobBody(200), { token: poster.token });
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({ status: 'open', bounty_claw: 200, requested_by_wallet: poster.wallet });
    const jobId = posted.body.job_id;
    expect(await clawBalance(poster.wallet)).toBe(800);
    expect(await accountClaw(holdAccount('job', jobId))).toBe(200);
    expect(await events('job.posted', jobId)).toHaveLength(1);

    const first = await bidOn(jobId, bidder, 150);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ job_id: jobId, bidder_wallet: bidder.wallet, bid_claw: 150, status: 'pending' });
    expect((await app.get(`/api/v1/jobs/${jobId}`)).body.status).toBe('bid');
    const second = await bidOn(jobId, other, 180);
    expect(second.status).toBe(201);
    expect(await events('job.bid', jobId)).toHaveLength(2);

    const accepted = await app.post(`/api/v1/jobs/${jobId}/accept`, { bid_id: first.body.bid_id }, { token: poster.token });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({
      job_id: jobId,
      status: 'executing',
      accepted_bid_id: first.body.bid_id,
      bidder_wallet: bidder.wallet,
    });
    expect(await accountClaw(holdAccount('job', jobId))).toBe(200);

    const feesBefore = await accountClaw(PLATFORM_FEES);
    const submitted = await app.post(`/api/v1/jobs/${jobId}/submit`, { result: { verdict: 'safe' } }, { token: bidder.token });
    expect(submitted.status).toBe(200);
    expect(submitted.body).toEqual({
      job_id: jobId,
      status: 'completed',
      paid_claw: 190,
      fee_claw: 10,
      bidder_wallet: bidder.wallet,
    });
    expect(await clawBalance(bidder.wallet)).toBe(190);
    expect(await accountClaw(PLATFORM_FEES)).toBe(feesBefore + 10);
    expect(await accountClaw(holdAccount('job', jobId))).toBe(0);
    expect(await events('job.completed', jobId)).toHaveLength(1);

    const detail = await app.get(`/api/v1/jobs/${jobId}`, { token: poster.token });
    expect(detail.body).toMatchObject({
      status: 'completed',
      accepted_bid_id: first.body.bid_id,
      fee_claw: 10,
      result: { verdict: 'safe' },
    });
    expect(detail.body.bids.map((b: any) => b.status).sort()).toEqual(['accepted', 'rejected']);
    // the result is the poster's and the bidder's: others (and anonymous readers) see null
    expect((await app.get(`/api/v1/jobs/${jobId}`, { token: other.token })).body.result).toBeNull();
    expect((await app.get(`/api/v1/jobs/${jobId}`)).body.result).toBeNull();
    expect((await app.get(`/api/v1/jobs/${jobId}`, { token: bidder.token })).body.result).toEqual({ verdict: 'safe' });
  });

  it('a tiny bounty is never fee-free: the 5% fee rounds up to at least 1 micro-CLAW', async () => {
    const poster = await agent(1);
    const bidder = await agent();
    const feesBefore = await accountClaw(PLATFORM_FEES);
    const paid: number[] = [];
    // 0.000001 (fee 1, paid 0), 0.000019 (5% = 0.95 -> 1), 0.000021 (5% = 1.05 -> 2)
    for (const bounty of [0.000001, 0.000019, 0.000021]) {
      const jobId = await postJob(poster, bounty);
      const bid = await bidOn(jobId, bidder, bounty);
      await app.post(`/api/v1/jobs/${jobId}/accept`, { bid_id: bid.body.bid_id }, { token: poster.token });
      const submitted = await app.post(`/api/v1/jobs/${jobId}/submit`, { result: 'done' }, { token: bidder.token });
      expect(submitted.status).toBe(200);
      paid.push(submitted.body.paid_claw, submitted.body.fee_claw);
    }
    expect(paid).toEqual([0, 0.000001, 0.000018, 0.000001, 0.000019, 0.000002]);
    expect(await clawBalance(bidder.wallet)).toBe(0.000037);
    expect(await accountClaw(PLATFORM_FEES)).toBeCloseTo(feesBefore + 0.000004, 9);
  });

  it('adds collaboration edges between the poster’s and the bidder’s agents', async () => {
    const poster = await agent(100);
    const bidder = await agent();
    const jobId = await postJob(poster, 10);
    const bid = await bidOn(jobId, bidder, 10);
    await app.post(`/api/v1/jobs/${jobId}/accept`, { bid_id: bid.body.bid_id }, { token: poster.token });
    await app.post(`/api/v1/jobs/${jobId}/submit`, { result: 'done' }, { token: bidder.token });
    const edges = await app.database.sql.query<{ type: string; strength: number; source: string; target: string }>(
      `SELECT e.type, e.strength, s.owner_wallet AS source, t.owner_wallet AS target FROM trust_edges e
       JOIN agents s ON s.id = e.source_agent_id JOIN agents t ON t.id = e.target_agent_id WHERE e.type = 'collaboration'
         AND (s.owner_wallet = $1 OR t.owner_wallet = $1)`,
      [poster.wallet],
    );
    expect(edges.map((e) => `${e.source}>${e.target}:${e.strength}`).sort()).toEqual(
      [`${poster.wallet}>${bidder.wallet}:0.25`, `${bidder.wallet}>${poster.wallet}:0.25`].sort(),
    );

    // A second job between the two, the roles the other way round: 0.25 more each way, and the edges into both
    // agents are what recomputing every edge into them from the jobs gives.
    await fund(bidder.wallet, 10);
    const back = await postJob(bidder, 10);
    const backBid = await bidOn(back, poster, 10);
    await app.post(`/api/v1/jobs/${back}/accept`, { bid_id: backBid.body.bid_id }, { token: bidder.token });
    expect((await app.post(`/api/v1/jobs/${back}/submit`, { result: 'done' }, { token: poster.token })).status).toBe(200);
    const into = (id: string) =>
      app.database.sql.query<{ source: string; type: string; strength: number }>(
        'SELECT source_agent_id AS source, type, strength FROM trust_edges WHERE target_agent_id = $1 ORDER BY 1, 2',
        [id],
      );
    const agentOf = async (wallet: string) =>
      (await app.database.sql.query<{ id: string }>('SELECT id FROM agents WHERE owner_wallet = $1', [wallet]))[0]!.id;
    const ids = [await agentOf(poster.wallet), await agentOf(bidder.wallet)];
    const recorded = [await into(ids[0]!), await into(ids[1]!)];
    expect(recorded.map((edges) => edges.filter((e) => e.type === 'collaboration').map((e) => e.strength))).toEqual([
      [0.5],
      [0.5],
    ]);
    for (const id of ids) await deriveEdgesInto(id!, app.database.sql);
    expect([await into(ids[0]!), await into(ids[1]!)]).toEqual(recorded);
  });

  it('expires an unaccepted job and returns its escrow to the poster (status expired)', async () => {
    const poster = await agent(100);
    const bidder = await agent();
    const jobId = await postJob(poster, 40);
    await bidOn(jobId, bidder, 40);
    const accepted = await postJob(poster, 10);
    const b2 = await bidOn(accepted, bidder, 10);
    await app.post(`/api/v1/jobs/${accepted}/accept`, { bid_id: b2.body.bid_id }, { token: poster.token });
    expect(await clawBalance(poster.wallet)).toBe(50);
    await app.database.sql.query(`UPDATE jobs SET expires_at = now() - interval '1 second' WHERE id = ANY($1::uuid[])`, [
      [jobId, accepted],
    ]);
    // past expires_at but not yet swept: no bid, no acceptance
    expect((await bidOn(jobId, await agent(), 1)).status).toBe(409);
    expect(await expireJobs()).toBeGreaterThanOrEqual(1);
    expect(await expireJobs()).toBe(0);
    const job = await app.get(`/api/v1/jobs/${jobId}`);
    expect(job.body.status).toBe('expired');
    expect(job.body.bids[0].status).toBe('rejected');
    expect(await clawBalance(poster.wallet)).toBe(90);
    expect(await accountClaw(holdAccount('job', jobId))).toBe(0);
    // an executing job does not expire: the bidder is working on it
    expect((await app.get(`/api/v1/jobs/${accepted}`)).body.status).toBe('executing');
    const refunds = await app.database.sql.query(
      `SELECT id FROM ledger_transactions WHERE reason = 'job_refund' AND ref_id = $1`,
      [jobId],
    );
    expect(refunds).toHaveLength(1);
  });
});

describe('cancel: jobs do not lock money forever', () => {
  it('the poster takes the bounty back once the winner missed its delivery deadline (eta + grace), not before', async () => {
    const poster = await agent(100);
    const bidder = await agent();
    const jobId = await postJob(poster, 100);
    const bid = await bidOn(jobId, bidder, 80);
    const acceptedAt = Date.now();
    await app.post(`/api/v1/jobs/${jobId}/accept`, { bid_id: bid.body.bid_id }, { token: poster.token });
    const executing = await app.get(`/api/v1/jobs/${jobId}`);
    // eta_seconds 3600 + JOB_DELIVERY_GRACE_HOURS 24
    const deadline = Date.parse(executing.body.delivery_deadline);
    expect(Math.abs(deadline - (acceptedAt + 3600_000 + 24 * 3600_000))).toBeLessThan(10_000);

    const early = await app.post(`/api/v1/jobs/${jobId}/cancel`, {}, { token: poster.token });
    expect(early.status).toBe(409);
    expect(early.body.details).toMatchObject({ status: 'executing', delivery_deadline: executing.body.delivery_deadline });
    expect((await app.post(`/api/v1/jobs/${jobId}/cancel`, {}, { token: bidder.token })).status).toBe(403);
    expect(await clawBalance(poster.wallet)).toBe(0);

    await app.database.sql.query(`UPDATE jobs SET delivery_deadline = now() - interval '1 second' WHERE id = $1`, [jobId]);
    expect((await app.post(`/api/v1/jobs/${jobId}/cancel`, {}, { token: bidder.token })).status).toBe(403);
    const cancelled = await app.post(`/api/v1/jobs/${jobId}/cancel`, {}, { token: poster.token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ job_id: jobId, status: 'cancelled', refunded_claw: 100 });
    expect(await clawBalance(poster.wallet)).toBe(100);
    expect(await accountClaw(holdAccount('job', jobId))).toBe(0);
    expect(await events('job.cancelled', jobId)).toEqual([
      expect.objectContaining({
        data: expect.objectContaining({
          status: 'cancelled',
          refunded_claw: 100,
          reason: 'delivery_deadline_passed',
          bidder_wallet: bidder.wallet,
          requested_by_wallet: poster.wallet,
        }),
      }),
    ]);
    // too late to deliver, and nothing moves twice
    expect((await app.post(`/api/v1/jobs/${jobId}/submit`, { result: 'late' }, { token: bidder.token })).status).toBe(409);
    expect((await app.post(`/api/v1/jobs/${jobId}/cancel`, {}, { token: poster.token })).status).toBe(409);
    expect(await clawBalance(bidder.wallet)).toBe(0);
    expect(await clawBalance(poster.wallet)).toBe(100);
    const detail = await app.get(`/api/v1/jobs/${jobId}`);
    expect(detail.body).toMatchObject({ status: 'cancelled', cancelled_at: cancelled.body.cancelled_at });
    expect((await app.get('/api/v1/jobs?status=cancelled')).body.jobs.map((j: any) => j.job_id)).toContain(jobId);
  });

  it('an open job (even with pending bids) can be cancelled at once; completed ones cannot', async () => {
    const poster = await agent(30);
    const bidder = await agent();
    const jobId = await postJob(poster, 20);
    await bidOn(jobId, bidder, 20);
    const cancelled = await app.post(`/api/v1/jobs/${jobId}/cancel`, {}, { token: poster.token });
    expect(cancelled.status).toBe(200);
    expect((await events('job.cancelled', jobId))[0]!.data).toMatchObject({ reason: 'cancelled_by_poster', bidder_wallet: null });
    expect((await app.get(`/api/v1/jobs/${jobId}`)).body.bids[0].status).toBe('rejected');
    expect((await bidOn(jobId, await agent(), 5)).status).toBe(409);
    expect(await clawBalance(poster.wallet)).toBe(30);

    const done = await postJob(poster, 10);
    const bid = await bidOn(done, bidder, 10);
    await app.post(`/api/v1/jobs/${done}/accept`, { bid_id: bid.body.bid_id }, { token: poster.token });
    await app.post(`/api/v1/jobs/${done}/submit`, { result: 1 }, { token: bidder.token });
    const refused = await app.post(`/api/v1/jobs/${done}/cancel`, {}, { token: poster.token });
    expect(refused.status).toBe(409);
    expect(refused.body.details.status).toBe('completed');
    expect((await app.post(`/api/v1/jobs/${crypto.randomUUID()}/cancel`, {}, { token: poster.token })).status).toBe(404);
  });

  it('a late submission racing the poster’s cancellation: exactly one wins and the bounty moves once', async () => {
    const poster = await agent(10);
    const bidder = await agent();
    const jobId = await postJob(poster, 10);
    const bid = await bidOn(jobId, bidder, 10);
    await app.post(`/api/v1/jobs/${jobId}/accept`, { bid_id: bid.body.bid_id }, { token: poster.token });
    await app.database.sql.query(`UPDATE jobs SET delivery_deadline = now() - interval '1 second' WHERE id = $1`, [jobId]);
    const [submit, cancel] = await Promise.all([
      app.post(`/api/v1/jobs/${jobId}/submit`, { result: 'x' }, { token: bidder.token }),
      app.post(`/api/v1/jobs/${jobId}/cancel`, {}, { token: poster.token }),
    ]);
    expect([submit.status, cancel.status].sort()).toEqual([200, 409]);
    const total = (await clawBalance(poster.wallet)) + (await clawBalance(bidder.wallet));
    expect(total).toBe(submit.status === 200 ? 9.5 : 10);
    expect(await accountClaw(holdAccount('job', jobId))).toBe(0);
  });
});

describe('refusals', () => {
  it('402 when the balance cannot cover the bounty, and nothing is written', async () => {
    const poster = await agent(99.999999);
    const response = await app.post('/api/v1/jobs', jobBody(100), { token: poster.token });
    expect(response.status).toBe(402);
    expect(response.body.code).toBe('insufficient_credits');
    expect(await clawBalance(poster.wallet)).toBe(99.999999);
    expect(await app.database.sql.query('SELECT id FROM jobs WHERE poster_wallet = $1', [poster.wallet])).toHaveLength(0);
  });

  it('402 daily_limit_exceeded past the daily limit', async () => {
    const poster = await agent(1000, { maxSpend: 150 });
    expect((await app.post('/api/v1/jobs', jobBody(100), { token: poster.token })).status).toBe(201);
    const over = await app.post('/api/v1/jobs', jobBody(60), { token: poster.token });
    expect(over.status).toBe(402);
    expect(over.body.code).toBe('daily_limit_exceeded');
    expect(await clawBalance(poster.wallet)).toBe(900);
  });

  it('400 for bad fields, 401 without a token, 403 without jobs.write', async () => {
    const poster = await agent(100);
    for (const body of [
      jobBody(0),
      jobBody(-1),
      jobBody(1.0000001),
      { ...jobBody(1), title: '' },
      jobBody(1, { expires_at: new Date(Date.now() - 1000).toISOString() }),
      jobBody(1, { expires_at: new Date(Date.now() + 91 * 86400_000).toISOString() }),
      jobBody(1, { expires_at: 'tomorrow' }),
    ]) {
      const response = await app.post('/api/v1/jobs', body, { token: poster.token });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    expect((await app.post('/api/v1/jobs', jobBody(1))).status).toBe(401);
    const reader = await agent(100, { scopes: ['jobs.read'] });
    const forbidden = await app.post('/api/v1/jobs', jobBody(1), { token: reader.token });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe('missing_scope');
    expect(await clawBalance(poster.wallet)).toBe(100);
  });

  it('ignores fields the spec does not list, as every other endpoint does (post, bid, accept, submit)', async () => {
    const poster = await agent(100);
    const bidder = await agent();
    const posted = await app.post('/api/v1/jobs', { ...jobBody(10), currency: 'CLAW', tags: ['x'] }, { token: poster.token });
    expect(posted.status).toBe(201);
    const jobId = posted.body.job_id;
    const bid = await app.post(
      `/api/v1/jobs/${jobId}/bid`,
      { job_id: jobId, bid_claw: 5, eta_seconds: 60, proposal: 'p', note: 'x' },
      { token: bidder.token },
    );
    expect(bid.status).toBe(201);
    const accepted = await app.post(
      `/api/v1/jobs/${jobId}/accept`,
      { job_id: jobId, bid_id: bid.body.bid_id },
      { token: poster.token },
    );
    expect(accepted.status).toBe(200);
    const submitted = await app.post(
      `/api/v1/jobs/${jobId}/submit`,
      { job_id: jobId, result: { ok: true }, notes: 'done' },
      { token: bidder.token },
    );
    expect(submitted.status).toBe(200);
    expect(submitted.body.status).toBe('completed');
  });

  it('bids: not on your own job (403), once per wallet (409), at most the bounty (422), unknown job (404)', async () => {
    const poster = await agent(100);
    const bidder = await agent();
    const jobId = await postJob(poster, 20);
    expect((await bidOn(jobId, poster, 10)).status).toBe(403);
    expect((await bidOn(jobId, bidder, 20.000001)).status).toBe(422);
    expect((await bidOn(jobId, bidder, 10)).status).toBe(201);
    const again = await bidOn(jobId, bidder, 12);
    expect(again.status).toBe(409);
    expect((await bidOn(crypto.randomUUID(), bidder, 10)).status).toBe(404);
    expect(
      (await app.post(`/api/v1/jobs/not-a-uuid/bid`, { bid_claw: 1, eta_seconds: 1, proposal: 'x' }, { token: bidder.token }))
        .status,
    ).toBe(400);
    expect(
      (await app.post(`/api/v1/jobs/${jobId}/bid`, { bid_claw: 1, eta_seconds: 0, proposal: 'x' }, { token: bidder.token }))
        .status,
    ).toBe(400);
  });

  it('accept: poster only (403), a bid of this job (404), from open or bid only (409)', async () => {
    const poster = await agent(100);
    const bidder = await agent();
    const stranger = await agent();
    const jobId = await postJob(poster, 20);
    const otherJob = await postJob(poster, 20);
    const foreignBid = await bidOn(otherJob, bidder, 5);
    const bid = await bidOn(jobId, bidder, 5);
    expect((await app.post(`/api/v1/jobs/${jobId}/accept`, { bid_id: bid.body.bid_id }, { token: bidder.token })).status).toBe(
      403,
    );
    expect((await app.post(`/api/v1/jobs/${jobId}/accept`, { bid_id: bid.body.bid_id }, { token: stranger.token })).status).toBe(
      403,
    );
    expect(
      (await app.post(`/api/v1/jobs/${jobId}/accept`, { bid_id: foreignBid.body.bid_id }, { token: poster.token })).status,
    ).toBe(404);
    expect(
      (await app.post(`/api/v1/jobs/${jobId}/accept`, { bid_id: crypto.randomUUID() }, { token: poster.token })).status,
    ).toBe(404);
    expect(
      (await app.post(`/api/v1/jobs/${crypto.randomUUID()}/accept`, { bid_id: bid.body.bid_id }, { token: poster.token })).status,
    ).toBe(404);
    expect((await app.post(`/api/v1/jobs/${jobId}/accept`, { bid_id: bid.body.bid_id }, { token: poster.token })).status).toBe(
      200,
    );
    const twice = await app.post(`/api/v1/jobs/${jobId}/accept`, { bid_id: bid.body.bid_id }, { token: poster.token });
    expect(twice.status).toBe(409);
    expect(twice.body.details.status).toBe('executing');
    // no more bids once executing
    expect((await bidOn(jobId, stranger, 5)).status).toBe(409);
  });

  it('submit: winning bidder only (403), executing only (409), once (409)', async () => {
    const poster = await agent(100);
    const winner = await agent();
    const loser = await agent();
    const jobId = await postJob(poster, 20);
    // nothing accepted yet
    expect((await app.post(`/api/v1/jobs/${jobId}/submit`, { result: 'x' }, { token: winner.token })).status).toBe(409);
    const win = await bidOn(jobId, winner, 5);
    await bidOn(jobId, loser, 5);
    await app.post(`/api/v1/jobs/${jobId}/accept`, { bid_id: win.body.bid_id }, { token: poster.token });
    for (const who of [loser, poster]) {
      expect((await app.post(`/api/v1/jobs/${jobId}/submit`, { result: 'x' }, { token: who.token })).status).toBe(403);
    }
    expect((await app.post(`/api/v1/jobs/${jobId}/submit`, {}, { token: winner.token })).status).toBe(400);
    expect((await app.post(`/api/v1/jobs/${jobId}/submit`, { result: null }, { token: winner.token })).status).toBe(400);
    expect((await app.post(`/api/v1/jobs/${jobId}/submit`, { result: 'x' }, { token: winner.token })).status).toBe(200);
    const again = await app.post(`/api/v1/jobs/${jobId}/submit`, { result: 'y' }, { token: winner.token });
    expect(again.status).toBe(409);
    expect(await clawBalance(winner.wallet)).toBe(19);
    expect((await app.post(`/api/v1/jobs/${crypto.randomUUID()}/submit`, { result: 'x' }, { token: winner.token })).status).toBe(
      404,
    );
  });
});

describe('Idempotency-Key on money-moving POSTs', () => {
  it('replays the first answer for the same body and moves money once; 422 for another body', async () => {
    const poster = await agent(100);
    const headers = { 'Idempotency-Key': `post-${crypto.randomUUID()}` };
    const first = await app.post('/api/v1/jobs', jobBody(30), { token: poster.token, headers });
    const again = await app.post('/api/v1/jobs', jobBody(30), { token: poster.token, headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await clawBalance(poster.wallet)).toBe(70);
    const other = await app.post('/api/v1/jobs', jobBody(31), { token: poster.token, headers });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_mismatch');
    expect(await clawBalance(poster.wallet)).toBe(70);

    const bidder = await agent();
    const bidHeaders = { 'Idempotency-Key': 'bid-1' };
    const bid1 = await bidOn(first.body.job_id, bidder, 5, bidHeaders);
    const bid2 = await bidOn(first.body.job_id, bidder, 5, bidHeaders);
    expect(bid2.body).toEqual(bid1.body);
    const acceptHeaders = { 'Idempotency-Key': 'accept-1' };
    const a1 = await app.post(
      `/api/v1/jobs/${first.body.job_id}/accept`,
      { bid_id: bid1.body.bid_id },
      { token: poster.token, headers: acceptHeaders },
    );
    const a2 = await app.post(
      `/api/v1/jobs/${first.body.job_id}/accept`,
      { bid_id: bid1.body.bid_id },
      { token: poster.token, headers: acceptHeaders },
    );
    expect([a1.status, a2.status]).toEqual([200, 200]);
    const submitHeaders = { 'Idempotency-Key': 'submit-1' };
    const s1 = await app.post(
      `/api/v1/jobs/${first.body.job_id}/submit`,
      { result: 1 },
      { token: bidder.token, headers: submitHeaders },
    );
    const s2 = await app.post(
      `/api/v1/jobs/${first.body.job_id}/submit`,
      { result: 1 },
      { token: bidder.token, headers: submitHeaders },
    );
    expect(s2.body).toEqual(s1.body);
    expect(await clawBalance(bidder.wallet)).toBe(28.5);
    expect(
      (await app.post(`/api/v1/jobs/${first.body.job_id}/submit`, { result: 2 }, { token: bidder.token, headers: submitHeaders }))
        .status,
    ).toBe(422);
  });
});

describe('concurrency', () => {
  it('50 concurrent accepts of different bids on one job: exactly one wins', async () => {
    const poster = await agent(100);
    const jobId = await postJob(poster, 50);
    const bidders = await Promise.all(Array.from({ length: 50 }, () => agent()));
    const bids: string[] = [];
    for (const bidder of bidders) bids.push((await bidOn(jobId, bidder, 1)).body.bid_id);
    const answers = await Promise.all(
      bids.map((bidId) => app.post(`/api/v1/jobs/${jobId}/accept`, { bid_id: bidId }, { token: poster.token })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(49);
    const winner = answers.find((a) => a.status === 200)!.body.accepted_bid_id;
    const job = await app.get(`/api/v1/jobs/${jobId}`);
    expect(job.body.accepted_bid_id).toBe(winner);
    expect(job.body.bids.filter((b: any) => b.status === 'accepted')).toHaveLength(1);
  });

  it('concurrent submits pay once', async () => {
    const poster = await agent(100);
    const bidder = await agent();
    const jobId = await postJob(poster, 10);
    const bid = await bidOn(jobId, bidder, 10);
    await app.post(`/api/v1/jobs/${jobId}/accept`, { bid_id: bid.body.bid_id }, { token: poster.token });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => app.post(`/api/v1/jobs/${jobId}/submit`, { result: i }, { token: bidder.token })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(await clawBalance(bidder.wallet)).toBe(9.5);
  });
});

describe('GET /api/v1/jobs', () => {
  it('filters by status, skill and words, newest first, limit at most 50', async () => {
    const poster = await agent(1000);
    const tag = `zebra${Math.random().toString(36).slice(2, 8)}`;
    const a = await postJob(poster, 1, { title: `Find ${tag} liquidity`, required_skill: 'Trading' });
    const b = await postJob(poster, 1, { description: `A ${tag} audit`, required_skill: 'security' });
    const list = await app.get(`/api/v1/jobs?q=${tag}`);
    expect(list.status).toBe(200);
    expect(list.body.jobs.map((j: any) => j.job_id)).toEqual([b, a]);
    expect(list.body.total).toBe(2);
    expect((await app.get(`/api/v1/jobs?q=${tag}&skill=trading`)).body.jobs.map((j: any) => j.job_id)).toEqual([a]);
    // words match title or description in any case, every word must match, and % or _ are literal
    expect((await app.get(`/api/v1/jobs?q=${tag.toUpperCase()}+LIQUIDITY`)).body.jobs.map((j: any) => j.job_id)).toEqual([a]);
    expect((await app.get(`/api/v1/jobs?q=${tag}+Audit&skill=SECURITY`)).body.jobs.map((j: any) => j.job_id)).toEqual([b]);
    expect((await app.get(`/api/v1/jobs?q=${tag}+liquidity+audit`)).body.jobs).toEqual([]);
    expect((await app.get(`/api/v1/jobs?q=${tag.slice(0, 3)}%25${tag.slice(4)}`)).body.jobs).toEqual([]);
    expect((await app.get(`/api/v1/jobs?q=${tag.slice(0, 3)}_${tag.slice(4)}`)).body.jobs).toEqual([]);
    const bidder = await agent();
    await bidOn(a, bidder, 1);
    expect((await app.get(`/api/v1/jobs?q=${tag}&status=bid`)).body.jobs.map((j: any) => j.job_id)).toEqual([a]);
    expect((await app.get(`/api/v1/jobs?q=${tag}&status=open`)).body.jobs.map((j: any) => j.job_id)).toEqual([b]);
    expect((await app.get(`/api/v1/jobs?q=${tag}&status=completed`)).body.jobs).toEqual([]);
    // the list is cached, and emptied the moment a job or a bid changes
    const before = (await app.get(`/api/v1/jobs?q=${tag}&status=open`)).body.jobs;
    expect(before.map((j: any) => [j.job_id, j.bid_count])).toEqual([[b, 0]]);
    await bidOn(b, bidder, 1);
    const after = (await app.get(`/api/v1/jobs?q=${tag}&status=open`)).body.jobs;
    expect(after).toEqual([]);
    expect((await app.get(`/api/v1/jobs?q=${tag}&status=bid`)).body.jobs.map((j: any) => [j.job_id, j.bid_count])).toEqual([
      [b, 1],
      [a, 1],
    ]);
    expect((await app.get(`/api/v1/jobs?q=${tag}&limit=1`)).body).toMatchObject({ total: 2, limit: 1 });
    expect((await app.get('/api/v1/jobs?limit=51')).status).toBe(400);
    expect((await app.get('/api/v1/jobs?status=done')).status).toBe(400);
    expect((await app.get('/api/v1/jobs?q=%25')).status).toBe(200);
    // a blank skill filters nothing, and never empties the unfiltered list's cached page
    const blank = await app.get('/api/v1/jobs?skill=%20&limit=5');
    expect(blank.body.jobs.length).toBeGreaterThan(0);
    expect((await app.get('/api/v1/jobs?limit=5')).body.jobs).toEqual(blank.body.jobs);
    expect((await app.get(`/api/v1/jobs/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await app.get('/api/v1/jobs/nope')).status).toBe(400);
  });
  it('totals every status exactly from the maintained counters, as jobs are posted, bid on, accepted and expire', async () => {
    const expectTotals = async () => {
      const rows = await app.database.sql.query<{ status: string; n: number }>(
        'SELECT status, count(*)::int AS n FROM jobs GROUP BY status',
      );
      const counted = new Map(rows.map((row) => [row.status, row.n]));
      const all = rows.reduce((sum, row) => sum + row.n, 0);
      expect((await app.get('/api/v1/jobs?limit=1')).body).toMatchObject({ total: all, total_exact: true });
      expect((await app.get('/api/v1/jobs?status=all&limit=1')).body).toMatchObject({ total: all, total_exact: true });
      for (const status of ['open', 'bid', 'executing', 'completed', 'expired', 'cancelled']) {
        const list = await app.get(`/api/v1/jobs?status=${status}&limit=1`);
        expect(list.body, status).toMatchObject({ total: counted.get(status) ?? 0, total_exact: true });
      }
    };
    const poster = await agent(100);
    const bidder = await agent();
    const [first, second, third] = [await postJob(poster, 1), await postJob(poster, 1), await postJob(poster, 1)];
    await expectTotals();
    const bid = await bidOn(first, bidder, 1);
    await bidOn(second, bidder, 1);
    await expectTotals();
    await app.post(`/api/v1/jobs/${first}/accept`, { bid_id: bid.body.bid_id }, { token: poster.token });
    await app.post(`/api/v1/jobs/${first}/submit`, { result: 'done' }, { token: bidder.token });
    await app.database.sql.query(`UPDATE jobs SET expires_at = now() - interval '1 second' WHERE id = $1`, [third]);
    await expireJobs();
    await expectTotals();
  });

  it('counts a list filtered by words or skill up to 1,000 matches, or to the end of the page asked for', async () => {
    const tag = `bulk${Math.random().toString(36).slice(2, 8)}`;
    const poster = newWallet().address.toLowerCase();
    // cancelled jobs hold no escrow: the ledger's invariants stay true
    await app.database.sql.query(
      `INSERT INTO jobs (id, poster_wallet, title, description, required_skill, bounty, status, expires_at, cancelled_at, created_at)
       SELECT gen_random_uuid(), $1, 'Job ' || i || ' ' || $2, 'bulk', $2, 1000000, 'cancelled', now() + interval '1 day', now(),
         now() - make_interval(secs => i)
       FROM generate_series(1, 1005) i`,
      [poster, tag],
    );
    const first = await app.get(`/api/v1/jobs?q=${tag}&limit=20`);
    expect(first.body).toMatchObject({ total: 1000, total_exact: false });
    expect(first.body.jobs).toHaveLength(20);
    expect((await app.get(`/api/v1/jobs?skill=${tag}&status=cancelled&limit=5`)).body).toMatchObject({
      total: 1000,
      total_exact: false,
    });
    // the last page counts to its end: every match, exactly
    const last = await app.get(`/api/v1/jobs?q=${tag}&limit=20&offset=1000`);
    expect(last.body).toMatchObject({ total: 1005, total_exact: true });
    expect(last.body.jobs.map((job: any) => job.title)).toEqual(Array.from({ length: 5 }, (_, i) => `Job ${1001 + i} ${tag}`));
    expect((await app.get(`/api/v1/jobs?q=${tag}+job&status=open`)).body).toMatchObject({ total: 0, total_exact: true });
  });
});
