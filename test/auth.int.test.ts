import { parseSiweMessage } from 'viem/siwe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { issuedChallenges } from '../server/auth/create-challenge';
import { hashSecret } from '../server/auth/credentials';
import { startTestApp, type TestApp } from './harness';
import { newWallet, signatureHeaders, signedAction, signIn } from './wallets';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ PUBLIC_BASE_URL: 'https://vouchsafe.example' });
});
afterAll(() => app.close());

async function challengeFor(account = newWallet(), extra: Record<string, unknown> = {}) {
  const response = await app.post('/api/v1/auth/challenge', { owner_wallet: account.address, agent_pubkey: 'pk-1', ...extra });
  return { account, response };
}

describe('POST /api/v1/auth/challenge', () => {
  it('returns a Sign-In with Ethereum message bound to the domain, wallet and chain 8453', async () => {
    const { account, response } = await challengeFor(newWallet(), { agent_name: 'Scout' });
    expect(response.status).toBe(200);
    expect(response.body.challenge_id).toMatch(/^[0-9a-f-]{36}$/);
    const siwe = parseSiweMessage(response.body.challenge);
    expect(siwe.domain).toBe('vouchsafe.example');
    expect(siwe.address).toBe(account.address);
    expect(siwe.chainId).toBe(8453);
    expect(siwe.nonce!.length).toBeGreaterThanOrEqual(24); // 96+ bits of hex
    const ttl = new Date(response.body.expires_at).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(9 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000);
    expect(siwe.expirationTime!.toISOString()).toBe(response.body.expires_at);
  });

  it('gives every challenge a fresh nonce', async () => {
    const account = newWallet();
    const a = await challengeFor(account);
    const b = await challengeFor(account);
    expect(parseSiweMessage(a.response.body.challenge).nonce).not.toBe(parseSiweMessage(b.response.body.challenge).nonce);
  });

  it.each([
    [{ owner_wallet: '0x123' }, 'owner_wallet'],
    [{ agent_pubkey: '' }, 'agent_pubkey'],
    [{ requested_scopes: ['agents.invoke', 'root.everything'] }, 'requested_scopes.1'],
    [{ max_spend_claw_per_day: -1 }, 'max_spend_claw_per_day'],
    [{ max_spend_claw_per_day: 1.1234567 }, 'max_spend_claw_per_day'],
  ])('refuses %j with 400 naming the field', async (fields, field) => {
    const response = await app.post('/api/v1/auth/challenge', {
      owner_wallet: newWallet().address,
      agent_pubkey: 'pk',
      ...fields,
    });
    expect(response.status).toBe(400);
    expect(response.body.details.fields).toHaveProperty(field);
  });

  it('requires owner_wallet and agent_pubkey', async () => {
    const response = await app.post('/api/v1/auth/challenge', {});
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.details.fields).sort()).toEqual(['agent_pubkey', 'owner_wallet']);
  });
});

describe('POST /api/v1/auth/verify', () => {
  it('issues a 24-hour token, the requested scopes and a ck_ API key', async () => {
    const account = newWallet();
    const result = await signIn(app, account, { scopes: ['agents.invoke', 'credits.read'] });
    expect(result.token).toMatch(/^vst_[0-9A-Za-z]{43}$/);
    expect(result.wallet_address).toBe(account.address);
    expect(result.scopes).toEqual(['agents.invoke', 'credits.read']);
    expect(result.api_key).toMatch(/^ck_[0-9A-Za-z]{46}$/);
    const ttl = new Date(result.expires_at).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3600_000);
    expect(result.agent).toBeNull();
    expect((result as any).tier).toBe('none');
  });

  it('grants every scope when none are requested', async () => {
    const result = await signIn(app, newWallet());
    expect(result.scopes).toContain('agents.invoke');
    expect(result.scopes).toContain('api_keys.manage');
  });

  it('shows the API key once: a later verify for the same agent returns null and the prefix', async () => {
    const account = newWallet();
    const first = await signIn(app, account);
    const second = await signIn(app, account);
    expect(first.api_key).toMatch(/^ck_/);
    expect(second.api_key).toBeNull();
    expect((second as any).api_key_prefix).toBe(first.api_key!.slice(0, 11));
    expect(second.token).not.toBe(first.token);
  });

  it('refuses a signature by another wallet', async () => {
    const { response } = await challengeFor();
    const signature = await newWallet().signMessage({ message: response.body.challenge });
    const verify = await app.post('/api/v1/auth/verify', { challenge_id: response.body.challenge_id, signature });
    expect(verify.status).toBe(401);
  });

  it('refuses a signature of another text', async () => {
    const { account, response } = await challengeFor();
    const signature = await account.signMessage({ message: `${response.body.challenge} ` });
    const verify = await app.post('/api/v1/auth/verify', { challenge_id: response.body.challenge_id, signature });
    expect(verify.status).toBe(401);
  });

  it('refuses a replayed challenge', async () => {
    const { account, response } = await challengeFor();
    const signature = await account.signMessage({ message: response.body.challenge });
    const first = await app.post('/api/v1/auth/verify', { challenge_id: response.body.challenge_id, signature });
    const replay = await app.post('/api/v1/auth/verify', { challenge_id: response.body.challenge_id, signature });
    expect(first.status).toBe(200);
    expect(replay.status).toBe(401);
  });

  it('lets only one of many concurrent verifies of one challenge through', async () => {
    const { account, response } = await challengeFor();
    const signature = await account.signMessage({ message: response.body.challenge });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => app.post('/api/v1/auth/verify', { challenge_id: response.body.challenge_id, signature })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 401)).toHaveLength(9);
    // The losers wrote nothing: one token and one key for the wallet.
    const count = async (table: string) =>
      Number(
        (
          await app.database.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE wallet = $1`, [
            account.address,
          ])
        )[0]!.n,
      );
    expect(await count('access_tokens')).toBe(1);
    expect(await count('api_keys')).toBe(1);
  });

  it('mints one key when first sign-ins of one wallet and agent_pubkey race through different challenges', async () => {
    const account = newWallet();
    const challenges = await Promise.all(Array.from({ length: 6 }, () => challengeFor(account)));
    const signed = await Promise.all(
      challenges.map(async ({ response }) => ({
        challenge_id: response.body.challenge_id,
        signature: await account.signMessage({ message: response.body.challenge }),
      })),
    );
    const results = await Promise.all(signed.map((body) => app.post('/api/v1/auth/verify', body)));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
    const keys = results.map((r) => r.body.api_key).filter(Boolean);
    expect(keys).toHaveLength(1);
    // Every sign-in names the one key's prefix, and that key works.
    expect(new Set(results.map((r) => r.body.api_key_prefix))).toEqual(new Set([keys[0].slice(0, 11)]));
    const [row] = await app.database.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM api_keys WHERE wallet = $1 AND source = 'verify'`,
      [account.address],
    );
    expect(row!.n).toBe(1);
    expect((await app.get('/api/v1/auth/session', { headers: { 'x-api-key': keys[0] } })).status).toBe(200);
  });

  it('refuses an expired challenge', async () => {
    const { account, response } = await challengeFor();
    await app.database.sql.query(`UPDATE auth_challenges SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      response.body.challenge_id,
    ]);
    const signature = await account.signMessage({ message: response.body.challenge });
    const verify = await app.post('/api/v1/auth/verify', { challenge_id: response.body.challenge_id, signature });
    expect(verify.status).toBe(401);
  });

  it('reads no challenge back on the instance that issued it, and still reads one it did not', async () => {
    const reads = () => {
      const query = vi.spyOn(app.database.sql, 'query');
      return () => {
        const texts = query.mock.calls.map(([text]) => String(text));
        query.mockRestore();
        return texts.filter((text) => /SELECT wallet, agent_pubkey, agent_name, message FROM auth_challenges/.test(text)).length;
      };
    };
    const issuedHere = await challengeFor();
    const signature = await issuedHere.account.signMessage({ message: issuedHere.response.body.challenge });
    let done = reads();
    const verified = await app.post('/api/v1/auth/verify', { challenge_id: issuedHere.response.body.challenge_id, signature });
    expect(verified.status).toBe(200);
    expect(done()).toBe(0);

    // Issued by another instance (or forgotten here): read from the database.
    const elsewhere = await challengeFor();
    issuedChallenges().clear();
    done = reads();
    const signed = await elsewhere.account.signMessage({ message: elsewhere.response.body.challenge });
    const fromDatabase = await app.post('/api/v1/auth/verify', {
      challenge_id: elsewhere.response.body.challenge_id,
      signature: signed,
    });
    expect(fromDatabase.status).toBe(200);
    expect(done()).toBe(1);
  });

  it('refuses an unknown challenge and malformed input', async () => {
    const unknown = await app.post('/api/v1/auth/verify', {
      challenge_id: crypto.randomUUID(),
      signature: '0x' + 'ab'.repeat(65),
    });
    expect(unknown.status).toBe(401);
    const malformed = await app.post('/api/v1/auth/verify', { challenge_id: 'nope' });
    expect(malformed.status).toBe(400);
  });

  it('stores tokens, API keys and challenges without secrets in clear', async () => {
    const result = await signIn(app, newWallet());
    const tokens = await app.database.sql.query<Record<string, unknown>>('SELECT * FROM access_tokens');
    const keys = await app.database.sql.query<Record<string, unknown>>('SELECT * FROM api_keys');
    const dump = JSON.stringify([tokens, keys]);
    expect(dump).not.toContain(result.token);
    expect(dump).not.toContain(result.api_key!);
    expect(dump).toContain(hashSecret(result.token));
    expect(dump).toContain(hashSecret(result.api_key!));
  });
});

describe('bearer tokens', () => {
  it('authenticate a request, and stop at once when revoked', async () => {
    const { token } = await signIn(app, newWallet());
    expect((await app.get('/api/list-api-keys', { token })).status).toBe(200);
    expect((await app.post('/api/v1/auth/revoke', {}, { token })).status).toBe(200);
    const after = await app.get('/api/list-api-keys', { token });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('unauthorized');
  });

  it('expire after 24 hours', async () => {
    const { token } = await signIn(app, newWallet());
    await app.database.sql.query(`UPDATE access_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [
      hashSecret(token),
    ]);
    expect((await app.get('/api/list-api-keys', { token })).status).toBe(401);
  });

  it('refuse garbage and a missing credential with 401', async () => {
    expect((await app.get('/api/list-api-keys', { token: 'vst_nope' })).status).toBe(401);
    expect((await app.get('/api/list-api-keys', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
    const missing = await app.get('/api/list-api-keys');
    expect(missing.status).toBe(401);
    expect(missing.body.details.accepted).toEqual(['bearer', 'signature']);
  });

  it('carry scopes: a missing scope is 403 naming it', async () => {
    const { token } = await signIn(app, newWallet(), { scopes: ['agents.read'] });
    const response = await app.get('/api/list-api-keys', { token });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('missing_scope');
    expect(response.body.error).toContain('api_keys.manage');
    expect(response.body.details.required_scope).toBe('api_keys.manage');
  });
});

describe('GET /api/v1/auth/session', () => {
  it('describes the presented credential', async () => {
    const account = newWallet();
    const { token, api_key } = await signIn(app, account, { scopes: ['agents.read'], agentPubkey: 'who' });
    const byToken = await app.get('/api/v1/auth/session', { token });
    expect(byToken.body).toEqual({
      wallet_address: account.address,
      agent_id: null,
      agent_pubkey: 'who',
      scopes: ['agents.read'],
      via: 'bearer',
    });
    const byKey = await app.get('/api/v1/auth/session', { headers: { 'X-Api-Key': api_key! } });
    expect(byKey.body.via).toBe('api_key');
    expect((await app.get('/api/v1/auth/session')).status).toBe(401);
  });
});

describe('signature headers', () => {
  it('authenticate once; the same headers again are refused', async () => {
    const account = newWallet();
    const headers = await signatureHeaders(account, 'List API keys');
    const first = await app.get('/api/list-api-keys', { headers });
    const replay = await app.get('/api/list-api-keys', { headers });
    expect(first.status).toBe(200);
    expect(replay.status).toBe(401);
  });

  it('refuse a stale timestamp, a wrong signer and a message without a timestamp', async () => {
    const account = newWallet();
    const stale = await signedAction(account, 'List API keys', -301);
    const staleResponse = await app.get('/api/list-api-keys', {
      headers: { 'X-Agent-Address': account.address, 'X-Agent-Message': stale.message, 'X-Message-Signature': stale.signature },
    });
    expect(staleResponse.status).toBe(401);
    const other = await signedAction(newWallet(), 'List API keys');
    const wrongSigner = await app.get('/api/list-api-keys', {
      headers: { 'X-Agent-Address': account.address, 'X-Agent-Message': other.message, 'X-Message-Signature': other.signature },
    });
    expect(wrongSigner.status).toBe(401);
    const message = 'List API keys';
    const untimed = await app.get('/api/list-api-keys', {
      headers: {
        'X-Agent-Address': account.address,
        'X-Agent-Message': message,
        'X-Message-Signature': await account.signMessage({ message }),
      },
    });
    expect(untimed.status).toBe(401);
  });

  it('refuse incomplete headers', async () => {
    const response = await app.get('/api/list-api-keys', { headers: { 'X-Agent-Address': newWallet().address } });
    expect(response.status).toBe(401);
  });
});

describe('time-sensitive signed messages', () => {
  it('accepts 4:59 old and refuses 5:01 old', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const account = newWallet();
      const at = Math.floor(Date.now() / 1000);
      const sign = async (ts: number) => {
        const message = `List API keys ${ts}`;
        return {
          'X-Agent-Address': account.address,
          'X-Agent-Message': message,
          'X-Message-Signature': await account.signMessage({ message }),
        };
      };
      const fresh = await sign(at - 299);
      const stale = await sign(at - 301);
      expect((await app.get('/api/list-api-keys', { headers: fresh })).status).toBe(200);
      expect((await app.get('/api/list-api-keys', { headers: stale })).status).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });
});
