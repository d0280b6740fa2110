import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVouchsafeClient, VouchsafeError } from '../sdk';
import { checkedFetch } from './contract';
import { startTestApp, type TestApp } from './harness';
import { startTarget } from './targets';
import { newWallet } from './wallets';

// The SDK (sdk/) against the real API: the README's flow (sign in, bootstrap, invoke) and typed
// calls on any path. Every answer is checked against the OpenAPI document on the way (checkedFetch).
let app: TestApp;
let target: Awaited<ReturnType<typeof startTarget>>;
beforeAll(async () => {
  app = await startTestApp();
  target = await startTarget();
});
afterAll(async () => {
  await target.close();
  await app.close();
});

const client = (options: { token?: string; apiKey?: string } = {}) =>
  createVouchsafeClient({
    baseUrl: 'http://vouchsafe.test/',
    fetch: checkedFetch((input, init) => app.fetch(new Request(input, init))),
    ...options,
  });

describe('the SDK', () => {
  it('signs in, bootstraps and invokes a paid agent (the README example)', async () => {
    // The target: another wallet's agent, callable at 1.5 CLAW.
    const owner = client();
    const ownerAccount = newWallet();
    await owner.signIn(ownerAccount, { agentName: 'Target' });
    const created = await owner.api.POST('/api/v1/agents', { body: { agent_name: 'Target' } });
    expect(created.response.status).toBe(201);
    const targetId = created.data!.agent_id;
    const patched = await owner.api.PATCH('/api/v1/agents/{id}', {
      params: { path: { id: targetId } },
      body: { is_callable: true, invoke_url: `${target.url}/echo`, price_claw_per_call: 1.5 },
    });
    expect(patched.error).toBeUndefined();
    expect(patched.data).toMatchObject({ is_callable: true, price_claw_per_call: 1.5 });

    const me = client();
    const account = newWallet();
    const session = await me.signIn(account, { agentName: 'Caller' });
    expect(session).toMatchObject({ token_type: 'Bearer', wallet_address: account.address });
    const boot = await me.bootstrap({ agent_name: 'Caller' });
    expect(boot).toMatchObject({ owner_wallet: account.address, welcome_claw: 100, already_existed: false });

    const result = await me.invoke(targetId, { question: 'hi' });
    expect(result).toMatchObject({ status: 'success', fee_claw: 1.5, target_agent: { agent_id: targetId } });
    expect(result.response).toEqual({ echo: { question: 'hi' }, caller: account.address });
    expect((await me.credits()).balance_claw).toBe(98.5);
    expect((await owner.credits()).balance_claw).toBe(1.5);
  });

  it('throws VouchsafeError with the error body for a refusal, and types every path', async () => {
    const me = client();
    await me.signIn(newWallet());
    const missing = await me.invoke(crypto.randomUUID(), {}).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(VouchsafeError);
    expect(missing).toMatchObject({ status: 404, code: 'not_found' });

    const list = await me.api.GET('/api/agents', { params: { query: { limit: 5 } } });
    expect(list.response.status).toBe(200);
    expect(Array.isArray(list.data!.agents)).toBe(true);
    const invalid = await me.api.GET('/api/agents', { params: { query: { tier: 'platinum' as never } } });
    expect(invalid.response.status).toBe(400);
    expect(invalid.error).toMatchObject({ code: 'invalid_request', details: { fields: { tier: expect.any(String) } } });
  });

  it('authenticates with the API key from the first sign-in, and with a token given up front', async () => {
    const first = client();
    const session = await first.signIn(newWallet());
    expect(session.api_key).toMatch(/^ck_/);
    const byKey = await client({ apiKey: session.api_key! }).api.GET('/api/v1/auth/session');
    expect(byKey.data).toMatchObject({ wallet_address: session.wallet_address, via: 'api_key' });
    const byToken = await client({ token: session.token }).api.GET('/api/v1/auth/session');
    expect(byToken.data).toMatchObject({ wallet_address: session.wallet_address, via: 'bearer' });
    const anonymous = await client().api.GET('/api/v1/auth/session');
    expect(anonymous.response.status).toBe(401);
  });

  it('fails the caller when an answer does not match the document (checkedFetch)', async () => {
    const lying = checkedFetch(async () => Response.json({ status: 'ok' }, { status: 200 }));
    await expect(lying('http://vouchsafe.test/api/v1/health')).rejects.toThrow(/does not match the documented schema/);
    const undocumented = checkedFetch(async () => Response.json({ error: 'x', code: 'x', details: {} }, { status: 418 }));
    await expect(undocumented('http://vouchsafe.test/api/v1/health')).rejects.toThrow(/status not documented/);
  });
});
