// Regressions for what the second adversarial probe found (security issue): the market, skills,
// MCP and the other recently added domains. Each test failed before its fix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrivateKeyAccount } from 'viem/accounts';
import { startTestApp, type TestApp } from './harness';
import { assertLedgerBalanced, clawBalance, fund } from './money';
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
