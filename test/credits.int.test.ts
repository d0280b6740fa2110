import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness';
import { clawBalance, fund } from './money';
import { newWallet, signIn } from './wallets';
import { PLATFORM_FEES, walletAccount, WORLD_GRANTS } from '../server/credits/accounts';
import { balanceOf, transfer } from '../server/credits/ledger';
import { microToClaw } from '../server/core/money';
import { db } from '../server/core/db';
import { presentAgentsB } from '../server/directory/agent-views';
import { refreshAgentStats } from '../server/trust/trust-counts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ TRUST_PROXY: 'true' });
});
afterAll(() => app.close());

const fromIp = (ip: string) => ({ 'X-Forwarded-For': ip });

describe('POST /api/v1/agents/bootstrap', () => {
  it('creates the agent and grants 100 CLAW once', async () => {
    const account = newWallet();
    const { token } = await signIn(app, account);
    const first = await app.post('/api/v1/agents/bootstrap', { agent_name: 'Boot' }, { token, headers: fromIp('10.0.0.1') });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      agent_name: 'Boot',
      owner_wallet: account.address,
      welcome_claw: 100,
      already_existed: false,
    });
    const second = await app.post('/api/v1/agents/bootstrap', { agent_name: 'Boot' }, { token, headers: fromIp('10.0.0.1') });
    expect(second.body).toMatchObject({ agent_id: first.body.agent_id, welcome_claw: 0, already_existed: true });
    expect(await clawBalance(account.address)).toBe(100);
    const credits = await app.get('/api/v1/credits', { token });
    expect(credits.body.transactions).toEqual([
      expect.objectContaining({ direction: 'credit', amount_claw: 100, reason: 'welcome_grant', created_at: expect.any(String) }),
    ]);
  });

  it('grants once per wallet, ever: another agent of the same wallet gets nothing', async () => {
    const account = newWallet();
    const a = await signIn(app, account, { agentPubkey: 'one' });
    const b = await signIn(app, account, { agentPubkey: 'two' });
    expect(
      (await app.post('/api/v1/agents/bootstrap', {}, { token: a.token, headers: fromIp('10.0.0.2') })).body.welcome_claw,
    ).toBe(100);
    const other = await app.post('/api/v1/agents/bootstrap', {}, { token: b.token, headers: fromIp('10.0.0.2') });
    expect(other.body).toMatchObject({ welcome_claw: 0, already_existed: false });
    expect(await clawBalance(account.address)).toBe(100);
  });

  it('grants 100 CLAW once under 20 concurrent bootstraps of one wallet', async () => {
    const account = newWallet();
    const { token } = await signIn(app, account);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        app.post('/api/v1/agents/bootstrap', { agent_name: 'Herd' }, { token, headers: fromIp('10.0.0.3') }),
      ),
    );
    expect(results.filter((r) => r.status !== 200).map((r) => r.body)).toEqual([]);
    expect(results.map((r) => r.body.welcome_claw).filter((claw) => claw === 100)).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.agent_id)).size).toBe(1);
    expect(results.filter((r) => r.body.already_existed === false)).toHaveLength(1);
    expect(await clawBalance(account.address)).toBe(100);
  });

  it('creates at most 3 new agents per IP per 24 h (429 with Retry-After); existing agents are not counted', async () => {
    const ip = '10.9.9.9';
    const sessions = await Promise.all(Array.from({ length: 4 }, () => signIn(app, newWallet())));
    const statuses = [];
    for (const session of sessions.slice(0, 3)) {
      statuses.push((await app.post('/api/v1/agents/bootstrap', {}, { token: session.token, headers: fromIp(ip) })).status);
    }
    expect(statuses).toEqual([200, 200, 200]);
    const again = await app.post('/api/v1/agents/bootstrap', {}, { token: sessions[0]!.token, headers: fromIp(ip) });
    expect(again.status).toBe(200);
    const fourth = await app.post('/api/v1/agents/bootstrap', {}, { token: sessions[3]!.token, headers: fromIp(ip) });
    expect(fourth.status).toBe(429);
    const retryAfter = Number(fourth.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(23 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    const elsewhere = await app.post('/api/v1/agents/bootstrap', {}, { token: sessions[3]!.token, headers: fromIp('10.9.9.10') });
    expect(elsewhere.status).toBe(200);
  });

  it('requires a bearer token and validates fields', async () => {
    expect((await app.post('/api/v1/agents/bootstrap', {})).status).toBe(401);
    const { token } = await signIn(app, newWallet());
    expect((await app.post('/api/v1/agents/bootstrap', { agent_name: 'x' }, { token })).status).toBe(400);
    expect((await app.post('/api/v1/agents/bootstrap', { scopes: ['nope'] }, { token })).status).toBe(400);
  });
});

describe('GET /api/v1/credits', () => {
  it('shows the balance, the daily spend against the limit, and transactions', async () => {
    const { token } = await signIn(app, newWallet(), { maxSpend: 12.5 });
    const empty = await app.get('/api/v1/credits', { token });
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ balance_claw: 0, daily_spend_claw: 0, daily_limit_claw: 12.5, transactions: [] });
  });

  it('shows each spend at once, the last 20 entries newest first, today’s spend only, and no other wallet’s', async () => {
    const account = newWallet();
    const { token } = await signIn(app, account, { maxSpend: 50 });
    const other = newWallet();
    await fund(account.address, 30);
    await app.database.sql.query(
      `INSERT INTO daily_spend (wallet, day, spent) VALUES ($1, (now() AT TIME ZONE 'utc')::date - 1, 9000000)`,
      [account.address],
    );
    let spent = 0n;
    for (let i = 1; i <= 21; i++) {
      const amount = BigInt(i) * 100_000n;
      await transfer(
        walletAccount(account.address),
        PLATFORM_FEES,
        amount,
        { reason: 'test_spend', refType: 'test', refId: String(i), spend: { wallet: account.address, amount, limit: null } },
        app.database.sql,
      );
      spent += amount;
      const credits = await app.get('/api/v1/credits', { token });
      expect(credits.body).toMatchObject({
        wallet: account.address,
        balance_claw: microToClaw(30_000_000n - spent),
        daily_spend_claw: microToClaw(spent),
        daily_limit_claw: 50,
      });
      expect(credits.body.transactions[0]).toMatchObject({
        direction: 'debit',
        amount_claw: microToClaw(amount),
        ref_id: String(i),
      });
    }
    // another wallet's later entries and spend never show
    await fund(other.address, 3);
    await transfer(
      walletAccount(other.address),
      PLATFORM_FEES,
      1_000_000n,
      { reason: 'other_spend', spend: { wallet: other.address, amount: 1_000_000n, limit: null } },
      app.database.sql,
    );
    const { body } = await app.get('/api/v1/credits', { token });
    expect(body).toMatchObject({ balance_claw: microToClaw(30_000_000n - spent), daily_spend_claw: microToClaw(spent) });
    expect(body.transactions.map((t: { ref_id: string }) => t.ref_id)).toEqual(
      Array.from({ length: 20 }, (_, i) => String(21 - i)),
    );
    const [newest] = await app.database.sql.query<{ transaction_id: string; created_at: Date }>(
      `SELECT transaction_id, created_at FROM ledger_postings WHERE account_id = $1 ORDER BY id DESC LIMIT 1`,
      [walletAccount(account.address)],
    );
    expect(body.transactions[0]).toEqual({
      transaction_id: newest!.transaction_id,
      direction: 'debit',
      amount_claw: 2.1,
      reason: 'test_spend',
      ref_type: 'test',
      ref_id: '21',
      created_at: new Date(newest!.created_at).toISOString(),
    });
  });

  it('needs credits.read and a credential', async () => {
    expect((await app.get('/api/v1/credits')).status).toBe(401);
    const { token } = await signIn(app, newWallet(), { scopes: ['agents.read'] });
    expect((await app.get('/api/v1/credits', { token })).status).toBe(403);
  });

  it('GET /api/v1/credits/deposit is public', async () => {
    const response = await app.get('/api/v1/credits/deposit');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ rate: '1 token = 1 CLAW', chain_id: 8453 });
    expect(response.body).toHaveProperty('treasury_address');
    expect(response.body).toHaveProperty('accepted_tokens');
  });
});

describe('GET /api/v1/agents/me/stats', () => {
  it('shows wallet, balance, agent and the last transactions', async () => {
    const account = newWallet();
    const { token } = await signIn(app, account);
    await app.post('/api/v1/agents/bootstrap', { agent_name: 'Stats' }, { token, headers: fromIp('10.0.0.77') });
    const stats = await app.get('/api/v1/agents/me/stats', { token });
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({
      wallet: account.address,
      balance_claw: 100,
      agent: { agent_name: 'Stats' },
      signals: { published: 0, resolved: 0, correct: 0, accuracy_pct: 0, total_staked_claw: 0 },
      jobs: { posted: 0, posted_completed: 0, bids_placed: 0, bids_won: 0, earned_claw: 0 },
    });
    expect(stats.body.transactions).toHaveLength(1);
  });

  it('answers a wallet with no agent and no entries with zeros, whatever other wallets hold', async () => {
    const busy = newWallet();
    const busySession = await signIn(app, busy);
    await app.post(
      '/api/v1/agents/bootstrap',
      { agent_name: 'Busy' },
      { token: busySession.token, headers: fromIp('10.0.0.78') },
    );
    await fund(busy.address, 5);
    const account = newWallet();
    const { token } = await signIn(app, account);
    const stats = await app.get('/api/v1/agents/me/stats', { token });
    expect(stats.status).toBe(200);
    expect(stats.body).toEqual({
      wallet: account.address,
      balance_claw: 0,
      agent: null,
      signals: { published: 0, resolved: 0, correct: 0, accuracy_pct: 0, total_staked_claw: 0 },
      jobs: { posted: 0, posted_completed: 0, bids_placed: 0, bids_won: 0, earned_claw: 0 },
      invocations: { made: 0, succeeded: 0 },
      transactions: [],
    });
  });

  it('shows the agent with the metrics every other view has, counted live while marked and from agent_stats after', async () => {
    const account = newWallet();
    const { token } = await signIn(app, account);
    const created = await app.post('/api/v1/agents', { agent_name: 'Measured' }, { token });
    const agentId = created.body.agent_id as string;
    await app.database.sql.query(`UPDATE agents SET tier = 'pro', verified_at = now() WHERE id = $1`, [agentId]);
    await app.database.sql.query(
      `INSERT INTO erc8004_links (agent_id, chain_id, registry, token_id, via, verified_wallet) VALUES ($1, 8453, $2, '42', 'owner', $3)`,
      [agentId, '0x8004A169FB4a3325136EB29fA0ceB6D2e539a432', account.address],
    );
    for (let i = 0; i < 16; i++) await fund(account.address, 1 + i);
    const expected = async () => {
      const agent = await db().agent.findUniqueOrThrow({ where: { id: agentId } });
      return (await presentAgentsB([agent], { withMetrics: true, viewer: account.address }))[0];
    };
    const marked = await app.database.sql.query('SELECT 1 FROM agent_stats_dirty WHERE agent_id = $1', [agentId]);
    expect(marked.length).toBeGreaterThan(0);
    const live = await app.get('/api/v1/agents/me/stats', { token });
    expect(live.body.agent).toEqual(await expected());
    expect(live.body.agent).toMatchObject({
      tier: 'pro',
      invoke_url: null,
      erc8004: { agent_id: '42', agent_registry: 'eip155:8453:0x8004A169FB4a3325136EB29fA0ceB6D2e539a432' },
    });
    expect(live.body.agent.trust_score).toBeGreaterThan(0);
    expect(live.body.transactions.map((t: { amount_claw: number }) => t.amount_claw)).toEqual(
      Array.from({ length: 15 }, (_, i) => 16 - i),
    );
    await refreshAgentStats(app.database.sql);
    expect(await app.database.sql.query('SELECT 1 FROM agent_stats_dirty WHERE agent_id = $1', [agentId])).toEqual([]);
    const maintained = await app.get('/api/v1/agents/me/stats', { token });
    expect(maintained.body.agent).toEqual(await expected());
    expect(maintained.body.agent).toEqual(live.body.agent);
  });

  it('shows every change of its agent at once, though it keeps the agent part between changes', async () => {
    const account = newWallet();
    const { token } = await signIn(app, account);
    const created = await app.post('/api/v1/agents', { agent_name: 'Polled' }, { token });
    const agentId = created.body.agent_id as string;
    const expected = async () => {
      const agent = await db().agent.findUniqueOrThrow({ where: { id: agentId } });
      return (await presentAgentsB([agent], { withMetrics: true, viewer: account.address }))[0];
    };
    const agentNow = async () => (await app.get('/api/v1/agents/me/stats', { token })).body.agent;
    expect(await agentNow()).toEqual(await expected());
    const changes: [string, string, unknown[]][] = [
      ['the agent', `UPDATE agents SET bio = 'changed' WHERE id = $1`, [agentId]],
      [
        'an endorsement',
        `INSERT INTO endorsements (id, subject_agent_id, endorser_wallet, attestation_type, message) VALUES (gen_random_uuid(), $1, $2, 'trusted', 'm')`,
        [agentId, newWallet().address.toLowerCase()],
      ],
      [
        'a published skill',
        `INSERT INTO skills (id, author_agent_id, author_wallet, name, description, category, pricing_type, status, family)
         VALUES (gen_random_uuid(), $1, $2, 'Skill', 'd', 'social', 'free', 'active', 'a')`,
        [agentId, account.address],
      ],
      [
        'an ERC-8004 link',
        `INSERT INTO erc8004_links (agent_id, chain_id, registry, token_id, via, verified_wallet) VALUES ($1, 8453, $2, '7', 'owner', $3)`,
        [agentId, '0x8004A169FB4a3325136EB29fA0ceB6D2e539a432', account.address],
      ],
    ];
    for (const [what, sql, params] of changes) {
      const before = await agentNow();
      await app.database.sql.query(sql, params);
      const after = await agentNow();
      expect(after, what).toEqual(await expected());
      expect(after, what).not.toEqual(before);
    }
  });
});

// Regressions of the first adversarial probe (security issue): each test failed before its fix.
const granted = async () => -(await balanceOf(WORLD_GRANTS, app.database.sql));

describe('the welcome grant is limited per IP however the agent came to exist', () => {
  it('refuses a fourth wallet from one IP even when it created its agent with POST /api/v1/agents first', async () => {
    const ip = '10.20.30.40';
    for (let i = 0; i < 3; i++) {
      const { token } = await signIn(app, newWallet());
      expect((await app.post('/api/v1/agents/bootstrap', {}, { token, headers: fromIp(ip) })).body.welcome_claw).toBe(100);
    }
    const before = await granted();
    const account = newWallet();
    const { token } = await signIn(app, account);
    expect((await app.post('/api/v1/agents', { agent_name: 'Sidestep' }, { token, headers: fromIp(ip) })).status).toBe(201);
    const bootstrap = await app.post('/api/v1/agents/bootstrap', {}, { token, headers: fromIp(ip) });
    expect(bootstrap.status).toBe(429);
    expect(Number(bootstrap.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await clawBalance(account.address)).toBe(0);
    expect(await granted()).toBe(before);
  });

  it('counts IPv6 clients by /64, so rotating addresses in one prefix does not help', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 4; i++) {
      const { token } = await signIn(app, newWallet());
      statuses.push((await app.post('/api/v1/agents/bootstrap', {}, { token, headers: fromIp(`2001:db8:aa:bb::${i}`) })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('lets a wallet that already had its grant bootstrap again from a full IP, granting nothing', async () => {
    const ip = '10.20.30.41';
    const first = await signIn(app, newWallet());
    await app.post('/api/v1/agents/bootstrap', {}, { token: first.token, headers: fromIp(ip) });
    for (let i = 0; i < 2; i++) {
      const { token } = await signIn(app, newWallet());
      await app.post('/api/v1/agents/bootstrap', {}, { token, headers: fromIp(ip) });
    }
    const again = await app.post('/api/v1/agents/bootstrap', {}, { token: first.token, headers: fromIp(ip) });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ welcome_claw: 0, already_existed: true });
  });
});
