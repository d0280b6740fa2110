import { refreshLeaderboard } from '../server/leaderboard/refresh-leaderboard';
import { JOBS } from '../server/scheduler/jobs';
import { finalizeSignalResolutions } from '../server/signals/resolve-signal';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness';
import { assertLedgerBalanced, fund } from './money';
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

async function agent(claw = 0, name = 'Board agent') {
  const account = newWallet();
  const session = await signIn(app, account);
  const created = await app.post('/api/v1/agents', { agent_name: name }, { token: session.token });
  if (claw > 0) await fund(account.address, claw);
  return { account, wallet: account.address, token: session.token, agentId: created.body.agent_id as string };
}

/** Records `count` successful invocations served by the agent (as the router would). */
async function served(target: { wallet: string; agentId: string }, count: number) {
  await app.database.sql.query(
    `INSERT INTO invocations (id, caller_wallet, target_agent_id, target_wallet, fee, status, family)
     SELECT gen_random_uuid(), '0x0000000000000000000000000000000000000001', $1::uuid, $2, 0, 'success', 'b' FROM generate_series(1, $3::int)`,
    [target.agentId, target.wallet, count],
  );
}

describe('GET /api/v1/agents/leaderboard', () => {
  it('gives tier badges strictly above 1,000, 5,000 and 10,000 (edges 1,000/1,001, 5,000/5,001, 10,000/10,001)', async () => {
    const scores = [10_001, 10_000, 5_001, 5_000, 1_001, 1_000];
    const agents = [];
    for (const score of scores) {
      const a = await agent(0, `Edge ${score}`);
      await served(a, score);
      agents.push(a);
    }
    const board = await app.get('/api/v1/agents/leaderboard?limit=6');
    expect(board.status).toBe(200);
    expect(board.body.sort).toBe('score');
    expect(board.body.agents.map((r: any) => [r.rank, r.score, r.tier_badge, r.wallet])).toEqual([
      [1, 10_001, 'diamond', agents[0]!.wallet],
      [2, 10_000, 'gold', agents[1]!.wallet],
      [3, 5_001, 'gold', agents[2]!.wallet],
      [4, 5_000, 'silver', agents[3]!.wallet],
      [5, 1_001, 'silver', agents[4]!.wallet],
      [6, 1_000, 'bronze', agents[5]!.wallet],
    ]);
    expect(board.body.agents[0]).toMatchObject({
      name: 'Edge 10001',
      invocations: 10_001,
      signals_published: 0,
      jobs_completed: 0,
      accuracy_pct: 0,
    });
  });

  it('scores jobs and signals, sorts by each column, and is cached for 60 s', async () => {
    const poster = await agent(1000);
    const worker = await agent(0, 'Worker');
    const analyst = await agent(100, 'Analyst');
    const backer = await agent(100);
    // worker completes two jobs: 200 points
    for (let i = 0; i < 2; i++) {
      const job = await app.post('/api/v1/jobs', { title: 'j', description: 'd', bounty_claw: 10 }, { token: poster.token });
      const bid = await app.post(
        `/api/v1/jobs/${job.body.job_id}/bid`,
        { bid_claw: 10, eta_seconds: 9, proposal: 'p' },
        { token: worker.token },
      );
      await app.post(`/api/v1/jobs/${job.body.job_id}/accept`, { bid_id: bid.body.bid_id }, { token: poster.token });
      await app.post(`/api/v1/jobs/${job.body.job_id}/submit`, { result: i }, { token: worker.token });
    }
    // analyst publishes three signals: two correct, one incorrect => 3 x 10 + 2 x 50 = 130 points, accuracy 66.7
    for (const outcome of ['correct', 'correct', 'incorrect']) {
      const s = await app.post(
        '/api/v1/signals',
        { title: 't', body: 'b', signal_type: 'short', asset: 'BTC', confidence: 60, stake_claw: 1 },
        { token: analyst.token },
      );
      await app.post(
        `/api/v1/signals/${s.body.signal_id}/stake`,
        { stance: 'disagree', amount_claw: 1 },
        { token: backer.token },
      );
      expect((await app.post(`/api/v1/signals/${s.body.signal_id}/resolve`, { outcome }, { token: analyst.token })).status).toBe(
        200,
      );
    }
    // the publisher's resolutions count once their dispute windows pass undisputed
    await app.database.sql.query(
      `UPDATE signals SET dispute_deadline = now() - interval '1 second' WHERE status = 'pending_resolution'`,
    );
    await finalizeSignalResolutions();
    // the table is under 60 s old (the test above read it): the job would recompute it within the minute
    await refreshLeaderboard(0);
    const byWallet = async (sort: string) => {
      const board = await app.get(`/api/v1/agents/leaderboard?sort=${sort}&limit=100`);
      expect(board.status).toBe(200);
      return board.body.agents;
    };
    const jobs = await byWallet('jobs');
    expect(jobs[0]).toMatchObject({ wallet: worker.wallet, name: 'Worker', jobs_completed: 2, score: 200, rank: 1 });
    const signals = await byWallet('signals');
    expect(signals[0]).toMatchObject({ wallet: analyst.wallet, signals_published: 3, score: 130, accuracy_pct: 66.7 });
    const accuracy = await byWallet('accuracy');
    expect(accuracy[0]).toMatchObject({ wallet: analyst.wallet });
    const invocations = await byWallet('invocations');
    expect(invocations[0].invocations).toBeGreaterThanOrEqual(invocations[1].invocations);
    // cached: a change is not visible to the same query within 60 s
    await served(worker, 50);
    const again = await byWallet('jobs');
    expect(again[0]).toMatchObject({ wallet: worker.wallet, score: 200 });
    expect((await app.get('/api/v1/agents/leaderboard?limit=101')).status).toBe(400);
    expect((await app.get('/api/v1/agents/leaderboard?sort=wealth')).status).toBe(400);
    const plain = await app.get('/api/v1/agents/leaderboard');
    expect(plain.body.agents.length).toBeLessThanOrEqual(20);
    expect(plain.headers.get('cache-control')).toBe('public, max-age=60');
  });

  it('jobs below LEADERBOARD_MIN_JOB_BOUNTY_CLAW (1 CLAW) earn no leaderboard points', async () => {
    const poster = await agent(10);
    const farmer = await agent(0, 'Farmer');
    const complete = async (bounty: number) => {
      const job = await app.post('/api/v1/jobs', { title: 'j', description: 'd', bounty_claw: bounty }, { token: poster.token });
      const bid = await app.post(
        `/api/v1/jobs/${job.body.job_id}/bid`,
        { bid_claw: bounty, eta_seconds: 9, proposal: 'p' },
        { token: farmer.token },
      );
      await app.post(`/api/v1/jobs/${job.body.job_id}/accept`, { bid_id: bid.body.bid_id }, { token: poster.token });
      expect((await app.post(`/api/v1/jobs/${job.body.job_id}/submit`, { result: 1 }, { token: farmer.token })).status).toBe(200);
    };
    for (let i = 0; i < 5; i++) await complete(0.000001);
    await complete(0.999999);
    await complete(1);
    await refreshLeaderboard(0);
    const board = await app.get('/api/v1/agents/leaderboard?sort=jobs&limit=99');
    const row = board.body.agents.find((r: any) => r.wallet === farmer.wallet);
    expect(row).toMatchObject({ jobs_completed: 1, score: 100 });
  });

  it('is read from the table the refresh job keeps, recomputed by a read only when the table is over 60 s old', async () => {
    const job = JOBS.find((j) => j.id === 'refresh-leaderboard')!;
    const star = await agent(0, 'Table star');
    await served(star, 20_007);
    const rowOf = async () =>
      (await app.get('/api/v1/agents/leaderboard?limit=1')).body.agents.find((r: any) => r.wallet === star.wallet);
    const stamp = async () =>
      (await app.database.sql.query<{ at: Date }>(`SELECT refreshed_at AS at FROM leaderboard_refresh`))[0]?.at;
    // the job skips a table under 30 s old and recomputes an older one
    await app.database.sql.query(`UPDATE leaderboard_refresh SET refreshed_at = now() - interval '20 seconds'`);
    const skipped = await stamp();
    await job.run(app.runtime);
    expect(await stamp()).toEqual(skipped);
    await app.database.sql.query(`UPDATE leaderboard_refresh SET refreshed_at = now() - interval '31 seconds'`);
    await job.run(app.runtime);
    expect((await stamp())!.getTime()).toBeGreaterThan(skipped!.getTime());
    const [kept] = await app.database.sql.query(
      `SELECT name, invocations, score::int AS score FROM leaderboard_wallets WHERE wallet = $1`,
      [star.wallet],
    );
    expect(kept).toEqual({ name: 'Table star', invocations: 20_007, score: 20_007 });
    const first = await app.get('/api/v1/agents/leaderboard?limit=1');
    expect(first.body.agents[0]).toMatchObject({ wallet: star.wallet, score: 20_007, tier_badge: 'diamond' });
    expect(first.body.generated_at).toBe((await stamp())!.toISOString());
    // answered from the table: the figures underneath move, the answer does not until a refresh
    await served(star, 5);
    expect(await rowOf()).toMatchObject({ score: 20_007 });
    // a table over 60 s old is recomputed by the read (the job did not run), then served; 61 s on, the
    // response cache's 1 s copy of the answer is gone too
    await app.database.sql.query(`UPDATE leaderboard_refresh SET refreshed_at = now() - interval '61 seconds'`);
    (app.runtime.state.get('http.response-cache') as { clear(): void } | undefined)?.clear();
    expect(await rowOf()).toMatchObject({ score: 20_012, invocations: 20_012 });
    // never refreshed: the same; a wallet without an agent any more leaves the table
    await app.database.sql.query(`DELETE FROM leaderboard_refresh`);
    (app.runtime.state.get('http.response-cache') as { clear(): void } | undefined)?.clear();
    await app.database.sql.query(`UPDATE agents SET owner_wallet = $1 WHERE id = $2`, [newWallet().address, star.agentId]);
    const moved = await app.get('/api/v1/agents/leaderboard?limit=1');
    expect(moved.body.agents[0]?.wallet).not.toBe(star.wallet);
    expect(await app.database.sql.query(`SELECT 1 FROM leaderboard_wallets WHERE wallet = $1`, [star.wallet])).toEqual([]);
  });
});

describe('GET /api/v1/agents/me/stats', () => {
  it('counts the caller’s signals and jobs', async () => {
    const poster = await agent(500);
    const worker = await agent(20);
    const backer = await agent(50);
    const job = await app.post('/api/v1/jobs', { title: 'j', description: 'd', bounty_claw: 100 }, { token: poster.token });
    await app.post('/api/v1/jobs', { title: 'j2', description: 'd', bounty_claw: 50 }, { token: poster.token });
    const bid = await app.post(
      `/api/v1/jobs/${job.body.job_id}/bid`,
      { bid_claw: 90, eta_seconds: 9, proposal: 'p' },
      { token: worker.token },
    );
    await app.post(`/api/v1/jobs/${job.body.job_id}/accept`, { bid_id: bid.body.bid_id }, { token: poster.token });
    await app.post(`/api/v1/jobs/${job.body.job_id}/submit`, { result: 'r' }, { token: worker.token });
    const s1 = await app.post(
      '/api/v1/signals',
      { title: 't', body: 'b', signal_type: 'long', asset: 'ETH', confidence: 60, stake_claw: 5 },
      { token: worker.token },
    );
    await app.post(
      '/api/v1/signals',
      { title: 't', body: 'b', signal_type: 'long', asset: 'ETH', confidence: 60, stake_claw: 3 },
      { token: worker.token },
    );
    await app.post(
      `/api/v1/signals/${s1.body.signal_id}/stake`,
      { stance: 'disagree', amount_claw: 10 },
      { token: backer.token },
    );
    await app.post(`/api/v1/signals/${s1.body.signal_id}/resolve`, { outcome: 'correct' }, { token: worker.token });
    await app.database.sql.query(`UPDATE signals SET dispute_deadline = now() - interval '1 second' WHERE id = $1`, [
      s1.body.signal_id,
    ]);
    await finalizeSignalResolutions();

    const mine = await app.get('/api/v1/agents/me/stats', { token: worker.token });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({
      wallet: worker.wallet,
      balance_claw: 20 + 95 - 8 + 5,
      signals: { published: 2, resolved: 1, correct: 1, accuracy_pct: 100, total_staked_claw: 8 },
      jobs: { posted: 0, posted_completed: 0, bids_placed: 1, bids_won: 1, earned_claw: 95 },
    });
    expect(mine.body.transactions.length).toBeLessThanOrEqual(15);
    const theirs = await app.get('/api/v1/agents/me/stats', { token: poster.token });
    expect(theirs.body.jobs).toEqual({ posted: 2, posted_completed: 1, bids_placed: 0, bids_won: 0, earned_claw: 0 });
    const staker = await app.get('/api/v1/agents/me/stats', { token: backer.token });
    expect(staker.body.signals).toEqual({ published: 0, resolved: 0, correct: 0, accuracy_pct: 0, total_staked_claw: 10 });
    expect((await app.get('/api/v1/agents/me/stats')).status).toBe(401);
  });
});
