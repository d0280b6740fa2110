import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness';
import { newWallet, signatureHeaders, signIn, nowSeconds } from './wallets';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('API keys', () => {
  it('mints a key shown once, lists it without the secret, and revokes it at once', async () => {
    const account = newWallet();
    const { token } = await signIn(app, account);
    const minted = await app.post('/api/mint-api-key', { label: 'ci', scopes: ['credits.read'] }, { token });
    expect(minted.status).toBe(201);
    expect(minted.body.api_key).toMatch(/^ck_/);
    expect(minted.body).toMatchObject({ label: 'ci', scopes: ['credits.read'], status: 'active' });
    const list = await app.get('/api/list-api-keys', { token });
    expect(list.status).toBe(200);
    const listed = list.body.keys.find((k: any) => k.key_id === minted.body.key_id);
    expect(listed.prefix).toBe(minted.body.api_key.slice(0, 11));
    expect(JSON.stringify(list.body)).not.toContain(minted.body.api_key);
    const apiKey = minted.body.api_key;
    expect((await app.get('/api/v1/agents/me/stats', { headers: { 'X-Api-Key': apiKey } })).status).toBe(200);
    const revoked = await app.post('/api/revoke-api-key', { key_id: minted.body.key_id }, { token });
    expect(revoked.status).toBe(200);
    expect((await app.get('/api/v1/agents/me/stats', { headers: { 'X-Api-Key': apiKey } })).status).toBe(401);
  });

  it('lists the wallet’s keys newest first, each as minted or revoked with its spend policy, and no other wallet’s', async () => {
    const { token } = await signIn(app, newWallet());
    const issued = (await app.get('/api/list-api-keys', { token })).body.keys;
    const other = await signIn(app, newWallet());
    const payee = newWallet().address;
    const policy = { allowed_payees: [payee], max_claw_per_call: 1.5, approval_above_claw: 0.25 };
    const minted = [];
    for (const body of [{ label: 'plain' }, { label: 'bounded', spend_policy: policy }, { label: 'doomed' }]) {
      const response = await app.post('/api/mint-api-key', body, { token });
      expect(response.status).toBe(201);
      const { api_key: _secret, ...view } = response.body;
      minted.push(view);
      await app.post('/api/mint-api-key', { label: 'theirs', spend_policy: { max_claw_per_call: 9 } }, { token: other.token });
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const revoked = await app.post('/api/revoke-api-key', { key_id: minted[2].key_id }, { token });
    const { revoked: _revoked, ...revokedView } = revoked.body;
    expect(revokedView).toMatchObject({ status: 'revoked', revoked_at: expect.any(String) });
    const list = await app.get('/api/list-api-keys', { token });
    expect(list.body.keys).toEqual([revokedView, minted[1], minted[0], ...issued]);
    expect(minted[1].spend_policy).toEqual(policy);
    expect(minted[0].spend_policy).toEqual({ allowed_payees: null, max_claw_per_call: null, approval_above_claw: null });
  });

  it('the key issued at verify works on /api/v1/agents/me/stats', async () => {
    const account = newWallet();
    const { api_key } = await signIn(app, account);
    const stats = await app.get('/api/v1/agents/me/stats', { headers: { 'X-Api-Key': api_key! } });
    expect(stats.status).toBe(200);
    expect(stats.body.wallet).toBe(account.address);
  });

  it('refuses a mistyped key without a database hit, and an unknown one', async () => {
    const { api_key } = await signIn(app, newWallet());
    const typo = api_key!.slice(0, -1) + (api_key!.endsWith('a') ? 'b' : 'a');
    expect((await app.get('/api/v1/agents/me/stats', { headers: { 'X-Api-Key': typo } })).body.error).toContain('malformed');
    expect((await app.get('/api/v1/agents/me/stats', { headers: { 'X-Api-Key': 'ck_short' } })).status).toBe(401);
  });

  it('one wallet cannot revoke another’s key (404) and the key keeps working', async () => {
    const owner = await signIn(app, newWallet());
    const minted = await app.post('/api/mint-api-key', { label: 'mine' }, { token: owner.token });
    const attacker = await signIn(app, newWallet());
    const attempt = await app.post('/api/revoke-api-key', { key_id: minted.body.key_id }, { token: attacker.token });
    expect(attempt.status).toBe(404);
    expect((await app.get('/api/v1/agents/me/stats', { headers: { 'X-Api-Key': minted.body.api_key } })).status).toBe(200);
    const attackerList = await app.get('/api/list-api-keys', { token: attacker.token });
    expect(attackerList.body.keys.map((k: any) => k.key_id)).not.toContain(minted.body.key_id);
  });

  it('cannot mint scopes beyond the calling credential', async () => {
    const { token } = await signIn(app, newWallet(), { scopes: ['api_keys.manage'] });
    const response = await app.post('/api/mint-api-key', { label: 'escalate', scopes: ['agents.invoke'] }, { token });
    expect(response.status).toBe(403);
    expect(response.body.details.required_scope).toBe('agents.invoke');
  });

  it('works with signature headers', async () => {
    const account = newWallet();
    const minted = await app.post(
      '/api/mint-api-key',
      { label: 'sig' },
      { headers: await signatureHeaders(account, 'Mint API key sig') },
    );
    expect(minted.status).toBe(201);
    const list = await app.get('/api/list-api-keys', { headers: await signatureHeaders(account, 'List API keys') });
    expect(list.body.keys).toHaveLength(1);
  });

  it('a key minted with the wallet’s own signature may carry any scope sign-in could grant, and works with it', async () => {
    const account = newWallet();
    const minted = await app.post(
      '/api/mint-api-key',
      { label: 'root', scopes: ['agents.invoke', 'credits.read', 'webhooks.manage'] },
      { headers: await signatureHeaders(account, 'Mint API key root') },
    );
    expect(minted.status).toBe(201);
    expect(minted.body.scopes).toEqual(['agents.invoke', 'credits.read', 'webhooks.manage']);
    const apiKey = { 'X-Api-Key': minted.body.api_key };
    expect((await app.get('/api/v1/webhooks', { headers: apiKey })).status).toBe(200);
    expect((await app.get('/api/v1/credits', { headers: apiKey })).status).toBe(200);
    // Without `scopes` the signed key still gets the read scopes only.
    const reader = await app.post(
      '/api/mint-api-key',
      { label: 'reader' },
      { headers: await signatureHeaders(account, 'Mint API key reader') },
    );
    expect(reader.body.scopes.length).toBeGreaterThan(0);
    expect(reader.body.scopes.every((scope: string) => scope.endsWith('.read'))).toBe(true);
  });

  it('refuses unknown scopes and a bad key_id with 400', async () => {
    const { token } = await signIn(app, newWallet());
    expect((await app.post('/api/mint-api-key', { label: 'x', scopes: ['god.mode'] }, { token })).status).toBe(400);
    expect((await app.post('/api/revoke-api-key', { key_id: 'nope' }, { token })).status).toBe(400);
    expect((await app.post('/api/revoke-api-key', {}, { token })).status).toBe(400);
  });
});

// Regressions of the first adversarial probe (security issue): each test failed before its fix.
describe('signature headers authorize exactly the operation their text names', () => {
  const headersFor = async (message: string, account = newWallet()) => ({
    'X-Agent-Address': account.address,
    'X-Agent-Message': message,
    'X-Message-Signature': await account.signMessage({ message }),
  });

  it('refuse any text that is not the operation’s, naming the expected text', async () => {
    const account = newWallet();
    for (const message of [
      `hello world ${nowSeconds()}`,
      `Endorse agent abc as trusted ${nowSeconds()}`,
      `List API keys ${nowSeconds()}`,
    ]) {
      const minted = await app.post('/api/mint-api-key', { label: 'phished' }, { headers: await headersFor(message, account) });
      expect(minted.status).toBe(401);
      expect(minted.body.details.expected_message).toBe('Mint API key phished <unix seconds>');
    }
    expect(
      (await app.get('/api/list-api-keys', { headers: await signatureHeaders(account, 'List API keys') })).body.keys,
    ).toEqual([]);
  });

  it('bind the operation’s fields: a signature for one key id cannot revoke another', async () => {
    const account = newWallet();
    const { token } = await signIn(app, account);
    const key = await app.post('/api/mint-api-key', { label: 'keep' }, { token });
    const wrong = await app.post(
      '/api/revoke-api-key',
      { key_id: key.body.key_id },
      { headers: await signatureHeaders(account, 'Revoke API key 00000000-0000-0000-0000-000000000000') },
    );
    expect(wrong.status).toBe(401);
    const right = await app.post(
      '/api/revoke-api-key',
      { key_id: key.body.key_id },
      { headers: await signatureHeaders(account, `Revoke API key ${key.body.key_id}`) },
    );
    expect(right.status).toBe(200);
  });

  it('are refused where no operation text is declared', async () => {
    const account = newWallet();
    const session = await app.get('/api/v1/auth/session', { headers: await headersFor(`Session ${nowSeconds()}`, account) });
    expect(session.status).toBe(401);
  });
});
