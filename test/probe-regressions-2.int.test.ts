// Regressions for what the second adversarial probe found (security issue): the market, skills,
// MCP and the other recently added domains. Each test failed before its fix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrivateKeyAccount } from 'viem/accounts';
import { startTestApp, type TestApp } from './harness';
import { assertLedgerBalanced, clawBalance, fund } from './money';
import { ApiError } from '../server/core/errors';
import { invokeAgent } from '../server/invoke/invoke-agent';
import { startTarget } from './targets';
import { newWallet, signedAction, signIn } from './wallets';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

async function agentSession(tier = 'none', scopes?: string[]) {
  const account = newWallet();
  const session = await signIn(app, account, scopes ? { scopes } : {});
  const created = await app.post(
    '/api/v1/agents',
    { agent_name: `Probe ${account.address.slice(2, 6)}` },
    { token: session.token },
  );
  await app.database.sql.query('UPDATE agents SET tier = $1 WHERE owner_wallet = $2', [tier, account.address]);
  return { account, token: session.token, agentId: created.body.agent_id as string };
}

async function install(skillId: string, account: PrivateKeyAccount, verb: 'Install' | 'Uninstall' = 'Install') {
  const signed = await signedAction(account, `${verb} skill ${skillId} n${Math.random().toString(36).slice(2, 10)}`);
  return app.request(verb === 'Install' ? 'POST' : 'DELETE', `/api/skills/${skillId}/install`, {
    body: { installer_wallet: account.address, ...signed },
  });
}

describe('MCP tools keep the REST money rules', () => {
  it('post_job refuses a zero or absent bounty with 400 (REST does), never a 500', async () => {
    const me = await agentSession();
    await fund(me.account.address, 10);
    for (const bounty of [0, 0.0000001]) {
      const response = await app.post(
        '/api/v1/mcp',
        { tool: 'post_job', input: { title: 'Free', description: 'Nothing escrowed', bounty_claw: bounty } },
        { token: me.token },
      );
      expect(response.status, response.text).toBe(400);
    }
    const rest = await app.post('/api/v1/jobs', { title: 'Free', description: 'x', bounty_claw: 0 }, { token: me.token });
    expect(rest.status).toBe(400);
    expect(await clawBalance(me.account.address)).toBe(10);
    await assertLedgerBalanced();
  });
});

describe('skill subscriptions', () => {
  it('an install that stays active past paid_until is charged again before the payload is served', async () => {
    const me = await agentSession('pro');
    const created = await app.post(
      '/api/skills',
      {
        name: `Sub ${Math.random().toString(36).slice(2, 8)}`,
        description: 'Monthly',
        category: 'analysis',
        pricing_type: 'subscription',
        price_claw: 3,
      },
      { token: me.token },
    );
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const buyer = newWallet();
    await fund(buyer.address, 10);
    expect((await install(id, buyer)).body.charged_claw).toBe(3);
    // The period ends while the skill stays installed.
    await app.database.sql.query(`UPDATE skill_installs SET paid_until = now() - interval '1 day' WHERE installer_wallet = $1`, [
      buyer.address,
    ]);
    const renewed = await install(id, buyer);
    expect(renewed.status).toBe(201);
    expect(renewed.body.charged_claw).toBe(3);
    expect(new Date(renewed.body.paid_until).getTime()).toBeGreaterThan(Date.now() + 29 * 86400_000);
    expect(await clawBalance(buyer.address)).toBe(4);
    // Still one install, counted once; a second call within the new period is free.
    expect((await app.get(`/api/skills/${id}/install`)).body.installs).toBe(1);
    expect((await install(id, buyer)).body.charged_claw).toBe(0);
    expect(await clawBalance(buyer.address)).toBe(4);
    await assertLedgerBalanced();
  });

  it('renews once under 10 concurrent installs of an expired active subscription', async () => {
    const me = await agentSession('pro');
    const created = await app.post(
      '/api/skills',
      {
        name: `Sub ${Math.random().toString(36).slice(2, 8)}`,
        description: 'Monthly',
        category: 'analysis',
        pricing_type: 'subscription',
        price_claw: 2,
      },
      { token: me.token },
    );
    const id = created.body.id as string;
    const buyer = newWallet();
    await fund(buyer.address, 20);
    await install(id, buyer);
    await app.database.sql.query(`UPDATE skill_installs SET paid_until = now() - interval '1 day' WHERE installer_wallet = $1`, [
      buyer.address,
    ]);
    const results = await Promise.all(Array.from({ length: 10 }, () => install(id, buyer)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(await clawBalance(buyer.address)).toBe(16);
    expect((await app.get(`/api/skills/${id}/install`)).body.installs).toBe(1);
    await assertLedgerBalanced();
  });
});

describe('the event stream', () => {
  it('keeps the per-caller limit under 20 concurrent opens, also with since= (a database read before the stream opens)', async () => {
    const base = await app.listen();
    const me = await agentSession();
    const since = new Date(Date.now() - 60_000).toISOString();
    const opened = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${base}/api/v1/stream${i % 2 ? `?since=${encodeURIComponent(since)}` : ''}`, {
          headers: { authorization: `Bearer ${me.token}` },
        }),
      ),
    );
    const statuses = opened.map((r) => r.status);
    await Promise.all(opened.map((r) => r.body?.cancel()));
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });
});

describe('per-wallet limits hold under concurrent creates', () => {
  it('never lets a wallet past 50 pipelines, and charges only the pipelines created', async () => {
    const me = await agentSession();
    await fund(me.account.address, 500 * 60);
    const body = (n: number) => ({
      name: `P${n}`,
      trigger_type: 'manual',
      steps: [{ id: 's', name: 'S', agent_id: me.agentId, output_key: 's' }],
    });
    for (let n = 0; n < 45; n++) {
      const r = await app.post('/api/v1/pipelines', body(n), { token: me.token });
      expect(r.status, r.text).toBe(201);
    }
    const results = await Promise.all(
      Array.from({ length: 15 }, (_, n) => app.post('/api/v1/pipelines', body(100 + n), { token: me.token })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(results.filter((r) => r.status === 409)).toHaveLength(10);
    const [count] = await app.database.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pipelines WHERE owner_wallet = $1 AND status <> 'deleted'`,
      [me.account.address],
    );
    expect(count!.n).toBe(50);
    expect(await clawBalance(me.account.address)).toBe(500 * 10);
    await assertLedgerBalanced();
  }, 60_000);
});

describe('webhooks per wallet', () => {
  it('never registers more than WEBHOOKS_PER_CALLER (20) under 30 concurrent creates', async () => {
    const me = await agentSession();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        app.post(
          '/api/v1/webhooks',
          { url: `https://hooks.example.com/${n}`, events: ['agent.registered'] },
          { token: me.token },
        ),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(20);
    expect(results.filter((r) => r.status === 409)).toHaveLength(10);
    const [count] = await app.database.sql.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhooks WHERE owner_wallet = $1',
      [me.account.address],
    );
    expect(count!.n).toBe(20);
  });
});

describe('pipelines: max_spend_claw_per_run', () => {
  // A run reads each step's price to check the cap, then the router charges the price it reads
  // itself: a seller who raises the price between the two reads (or an instance whose cache still
  // has the old one) would take more than the cap. The router now checks the cap at the charge.
  it('the router refuses a charge above the cap the run passes it, charging and forwarding nothing', async () => {
    const target = await startTarget();
    try {
      const seller = await agentSession();
      const patched = await app.request('PATCH', `/api/v1/agents/${seller.agentId}`, {
        token: seller.token,
        body: { is_callable: true, invoke_url: `${target.url}/echo`, price_claw_per_call: 5 },
      });
      expect(patched.status).toBe(200);
      const me = await agentSession();
      await fund(me.account.address, 10);
      const caller = {
        via: 'bearer' as const,
        wallet: me.account.address,
        agentId: me.agentId,
        agentPubkey: null,
        scopes: ['agents.invoke'],
        credentialId: null,
        maxSpendPerDay: null,
      };
      const refused = await invokeAgent(caller, {
        target: seller.agentId,
        payload: {},
        timeoutMs: 3000,
        family: 'b',
        maxFee: 2_000_000n,
      }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ApiError);
      // The cap a run passes is the most it may pay: a higher price is refused as price_changed (409).
      expect((refused as ApiError).status).toBe(409);
      expect((refused as ApiError).code).toBe('price_changed');
      expect(await clawBalance(me.account.address)).toBe(10);
      expect(target.calls).toHaveLength(0);
      const paid = await invokeAgent(caller, {
        target: seller.agentId,
        payload: {},
        timeoutMs: 3000,
        family: 'b',
        maxFee: 5_000_000n,
      });
      expect(paid.fee).toBe(5_000_000n);
      expect(await clawBalance(me.account.address)).toBe(5);
      await assertLedgerBalanced();
    } finally {
      await target.close();
    }
  });
});

// Last in the file: a second app replaces the current runtime, and closing it ends that runtime.
describe('the MCP door keeps the REST rate limits', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ RATE_LIMIT_WRITE: '3/1m' });
  });
  afterAll(() => limited.close());

  it('post_job counts against the write limit as POST /api/v1/jobs does, through both MCP bodies', async () => {
    const account = newWallet();
    const { token } = await signIn(limited, account);
    await fund(account.address, 100);
    const job = { title: 'Job', description: 'Work', bounty_claw: 1 };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await limited.post('/api/v1/mcp', { tool: 'post_job', input: job }, { token })).status);
    }
    const rpc = await limited.post(
      '/api/v1/mcp',
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'post_job', arguments: job } },
      { token, headers: { accept: 'application/json, text/event-stream' }, contract: false },
    );
    statuses.push(rpc.status);
    statuses.push((await limited.post('/api/v1/jobs', job, { token })).status);
    // A JSON-RPC call is refused inside its answer (a tool error naming the limit), as each call of a batch is.
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    expect(JSON.stringify(rpc.body)).toContain('rate_limited');
    // Read tools are not counted.
    expect((await limited.post('/api/v1/mcp', { tool: 'list_jobs', input: {} }, { token })).status).toBe(200);
    expect(await clawBalance(account.address)).toBe(97);
  });
});
