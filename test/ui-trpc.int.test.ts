// The web UI's tRPC procedures over the services: session and admin gates, the web sign-in challenge,
// admin pause with its audit entry. (Browser flows: e2e/ui/*.spec.ts.)
import { TRPCError } from '@trpc/server';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebSignInChallenge, verifyWebSignIn } from '../server/auth/web-sign-in';
import { appRouter } from '../server/trpc/router';
import { startTestApp, type TestApp } from './harness';
import { newWallet, registerAgent } from './wallets';

const admin = newWallet();
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ ADMIN_WALLETS: admin.address });
});
afterAll(() => app.close());

const as = (wallet: `0x${string}` | null, isAdmin = false) => appRouter.createCaller({ wallet, isAdmin, clientIp: '127.0.0.1' });

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return error instanceof TRPCError ? error.code : String(error);
  }
}

describe('web sign-in challenge', () => {
  it('is bound to the domain and chain, verifies once, and is refused by the API verify', async () => {
    const wallet = newWallet();
    const challenge = await createWebSignInChallenge(wallet.address);
    expect(challenge.message).toContain(`${new URL(app.runtime.config.PUBLIC_BASE_URL).host} wants you to sign in`);
    expect(challenge.message).toContain(`Chain ID: ${app.runtime.config.CHAIN_ID}`);
    const signature = await wallet.signMessage({ message: challenge.message });
    const api = await app.post('/api/v1/auth/verify', { challenge_id: challenge.challenge_id, signature });
    expect(api.status).toBe(401);
    expect(await verifyWebSignIn(challenge.challenge_id, signature)).toBe(getAddress(wallet.address));
    await expect(verifyWebSignIn(challenge.challenge_id, signature)).rejects.toMatchObject({ code: 'invalid_signature' });
  });

  it('refuses another wallet’s signature and an API challenge', async () => {
    const wallet = newWallet();
    const challenge = await createWebSignInChallenge(wallet.address);
    const wrong = await newWallet().signMessage({ message: challenge.message });
    await expect(verifyWebSignIn(challenge.challenge_id, wrong)).rejects.toMatchObject({ code: 'invalid_signature' });
    const apiChallenge = await app.post('/api/v1/auth/challenge', { owner_wallet: wallet.address, agent_pubkey: 'web-session' });
    const signature = await wallet.signMessage({ message: apiChallenge.body.challenge });
    await expect(verifyWebSignIn(apiChallenge.body.challenge_id, signature)).rejects.toMatchObject({ code: 'invalid_signature' });
  });
});

describe('gates', () => {
  it('wallet procedures need a session; admin procedures need an admin wallet', async () => {
    expect(await code(as(null).me.apiKeys())).toBe('UNAUTHORIZED');
    expect(await code(as(null).admin.agents({}))).toBe('UNAUTHORIZED');
    const user = newWallet().address;
    expect(await code(as(user).admin.agents({}))).toBe('FORBIDDEN');
    expect(await code(as(user).admin.pauseAgent({ ref: 'anything' }))).toBe('FORBIDDEN');
    expect(await code(as(user).admin.auditLog({}))).toBe('FORBIDDEN');
    expect(await code(as(admin.address, true).admin.agents({}))).toBe('ok');
  });
});

describe('admin pause', () => {
  it('pauses (not callable, owner cannot resume), unpauses, and audits both', async () => {
    const { account, response } = await registerAgent(app);
    const id = response.body.id as string;
    const adminCaller = as(admin.address, true);
    const paused = await adminCaller.admin.pauseAgent({ ref: id, reason: 'spam reports' });
    expect(paused).toMatchObject({ status: 'paused' });
    const owner = as(account.address);
    expect(await code(owner.me.updateAgent({ agentId: id, patch: { status: 'active' } }))).toBe('FORBIDDEN');
    expect((await app.get(`/api/v1/agents/${id}`)).body.status).toBe('paused');
    await adminCaller.admin.unpauseAgent({ ref: id });
    expect((await app.get(`/api/v1/agents/${id}`)).body.status).toBe('active');
    const log = await adminCaller.admin.auditLog({});
    expect(log.slice(0, 2).map((row) => row.action)).toEqual(['agent.unpause', 'agent.pause']);
    expect(log[1]).toMatchObject({
      admin_wallet: admin.address,
      target_id: id,
      details: expect.objectContaining({ reason: 'spam reports' }),
    });
    await expect(app.database.sql.query('DELETE FROM admin_audit_log')).rejects.toThrow(/append-only/);
  });

  it('a 404 for an unknown agent, as the REST API says it', async () => {
    expect(await code(as(admin.address, true).admin.pauseAgent({ ref: 'no-such-agent' }))).toBe('NOT_FOUND');
  });
});

describe('me', () => {
  it('mints a key once, lists it without the secret, revokes only its own', async () => {
    const wallet = newWallet();
    const me = as(wallet.address).me;
    const minted = await me.mintApiKey({ label: 'ui key' });
    expect(minted.api_key).toMatch(/^ck_/);
    const listed = await me.apiKeys();
    expect(JSON.stringify(listed)).not.toContain(minted.api_key);
    expect(await code(as(newWallet().address).me.revokeApiKey({ key_id: minted.key_id }))).toBe('NOT_FOUND');
    expect(await me.revokeApiKey({ key_id: minted.key_id })).toMatchObject({ status: 'revoked' });
  });
});

describe('agent look-up', () => {
  it('the UI finds an agent by its owner wallet (whole or its start), while REST search stays name or handle', async () => {
    const owner = newWallet();
    const { response } = await registerAgent(app, owner, { agentName: `Wallet Lookup ${owner.address.slice(2, 8)}` });
    expect(response.status).toBe(201);
    const id = response.body.id as string;
    for (const search of [owner.address, owner.address.toLowerCase(), owner.address.slice(0, 10)]) {
      const found = await as(null).agents.list({ search });
      expect(found.agents.map((agent) => agent.agent_id)).toContain(id);
    }
    // Too short to name a wallet: "0x" and fewer than 4 hex digits match no owner.
    const short = await as(null).agents.list({ search: owner.address.slice(0, 5), pageSize: 100 });
    expect(short.agents.map((agent) => agent.agent_id)).not.toContain(id);
    const rest = await app.get(`/api/agents?search=${owner.address}`);
    expect(rest.status).toBe(200);
    expect(rest.body.total).toBe(0);
  });
});
