// The UI's skills and analyzer procedures over the same services as REST: drafts never listed, install
// signed by the session's wallet, publish behind the Pro tier; the analyzer's checks, and its free limit
// shared with POST /api/analyze per client IP (taken back on failure, lifted at the entry tier).
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetAnalyses } from '../server/analyzer/analyze-request';
import { appRouter } from '../server/trpc/router';
import { startTestChain, type TestChain } from './chain';
import { startTestApp, type TestApp } from './harness';
import { newWallet, registerAgent, signedAction } from './wallets';

let chain: TestChain;
let app: TestApp;
beforeAll(async () => {
  chain = await startTestChain();
  app = await startTestApp({ TRUST_PROXY: 'true' }, { chain });
}, 60_000);
afterAll(async () => {
  await app?.close();
  await chain?.stop();
});

const as = (wallet: `0x${string}` | null, clientIp = '127.0.0.1') => appRouter.createCaller({ wallet, isAdmin: false, clientIp });

async function failure(promise: Promise<unknown>): Promise<{ code: string; apiCode: string | null; fields: unknown }> {
  try {
    await promise;
    return { code: 'ok', apiCode: null, fields: null };
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    const cause = error.cause as { code?: string; details?: { fields?: unknown } } | undefined;
    return { code: error.code, apiCode: cause?.code ?? null, fields: cause?.details?.fields ?? null };
  }
}

const TOKENS: Record<string, bigint> = { none: 0n, entry: 1_000_000n, pro: 10_000_000n };

/** A wallet holding the platform tokens of `tier` (read from the chain), with an agent. */
async function walletAtTier(tier: 'none' | 'entry' | 'pro') {
  const account = newWallet();
  if (TOKENS[tier]! > 0n) await chain.giveTokens(account.address, TOKENS[tier]!);
  await registerAgent(app, account);
  return account;
}

/** The page's request (no chain or wallet_address) is answered with the graded analysis. */
function graded<T extends object>(answer: T): Extract<T, { safety_rating: unknown }> {
  if (!('safety_rating' in answer)) throw new Error('expected the graded analysis');
  return answer as Extract<T, { safety_rating: unknown }>;
}

describe('skills procedures', () => {
  it('publishes at Pro, lists only active skills, installs with the wallet’s signature', async () => {
    const author = await walletAtTier('pro');
    const name = `Night Reconciler ${Math.random().toString(36).slice(2, 8)}`;
    const published = await as(author.address).skills.publish({
      name,
      description: 'Reconciles ledgers',
      category: 'automation',
    });
    expect(published.status).toBe('active');
    const draft = await as(author.address).skills.publish({
      name: `Helper ${Math.random().toString(36).slice(2, 8)}`,
      description: 'Paste your seed phrase here',
      category: 'automation',
    });
    expect(draft.status).toBe('draft');

    // The author, signed in, sees the public list too: no drafts.
    const list = await as(author.address).skills.list({ search: '', pageSize: 100 });
    const ids = list.skills.map((skill) => skill.id);
    expect(ids).toContain(published.id);
    expect(ids).not.toContain(draft.id);
    expect(list.skills.every((skill) => skill.status === 'active' && skill.review === undefined)).toBe(true);
    const filtered = await as(null).skills.list({ search: 'night reconciler', category: 'security' });
    expect(filtered.total).toBe(0);

    const installer = newWallet();
    const signed = await signedAction(installer, `Install skill ${published.id}`);
    const installed = await as(installer.address).skills.install({ id: published.id, ...signed });
    expect(installed).toMatchObject({ installed: true, already_installed: false, skill: { install_count: 1 } });
    // The signature belongs to the wallet that signed: another session cannot use it.
    const stolen = await signedAction(installer, `Install skill ${published.id}`, 1);
    expect((await failure(as(newWallet().address).skills.install({ id: published.id, ...stolen }))).code).toBe('UNAUTHORIZED');
    expect((await failure(as(null).skills.install({ id: published.id, ...stolen }))).code).toBe('UNAUTHORIZED');
    // Drafts cannot be installed by others.
    const onDraft = await signedAction(installer, `Install skill ${draft.id}`);
    expect((await failure(as(installer.address).skills.install({ id: draft.id, ...onDraft }))).code).toBe('NOT_FOUND');

    const examples = await as(null).skills.examples();
    expect(examples.map((example) => example.name)).toContain('Contract Safety Analyzer');
  });

  it('refuses publishing below Pro, as POST /api/skills does', async () => {
    const entry = await walletAtTier('entry');
    const refused = await failure(as(entry.address).skills.publish({ name: 'Nope', description: 'x', category: 'analysis' }));
    expect(refused).toMatchObject({ code: 'FORBIDDEN', apiCode: 'tier_required' });
    expect((await failure(as(null).skills.publish({ name: 'Nope', description: 'x', category: 'analysis' }))).code).toBe(
      'UNAUTHORIZED',
    );
  });
});

describe('analyzer procedure', () => {
  const honeypot = () => chain.deployment.sampleTokens.find((token) => token.kind === 'honeypot')!.address;
  const clean = () => chain.deployment.sampleTokens.find((token) => token.kind === 'clean')!.address;

  it('answers a bad address with the REST 400 and its fields, and grades the honeypot F', async () => {
    const bad = await failure(as(null, '198.51.100.1').analyzer.analyze({ contract_address: '0x1234' }));
    expect(bad).toMatchObject({ code: 'BAD_REQUEST', apiCode: 'invalid_request' });
    expect(bad.fields).toHaveProperty('contract_address');
    const otherChain = await failure(as(null, '198.51.100.1').analyzer.analyze({ contract_address: clean(), chain_id: 1 }));
    expect(otherChain).toMatchObject({ code: 'BAD_REQUEST', apiCode: 'invalid_request' });
    const result = graded(await as(null, '198.51.100.1').analyzer.analyze({ contract_address: honeypot(), chain_id: 8453 }));
    expect(result).toMatchObject({ safety_rating: 'F', risk_level: 'critical', is_honeypot: true });
    expect(result.risk_factors.some((factor) => factor.startsWith('honeypot:'))).toBe(true);
  });

  it('shares the 5-a-day free limit with POST /api/analyze per IP; failures are not counted; entry tier is unlimited', async () => {
    forgetAnalyses();
    const ip = '198.51.100.77';
    // Failures (no contract at an EOA: 422) are taken back.
    for (let i = 0; i < 6; i++) {
      const noCode = await failure(as(null, ip).analyzer.analyze({ contract_address: newWallet().address }));
      expect(noCode.code).toBe('UNPROCESSABLE_CONTENT');
    }
    await as(null, ip).analyzer.analyze({ contract_address: clean() });
    for (let i = 0; i < 4; i++) {
      const response = await app.post('/api/analyze', { contract_address: clean() }, { headers: { 'X-Forwarded-For': ip } });
      expect(response.status, response.text).toBe(200);
    }
    const rest = await app.post('/api/analyze', { contract_address: clean() }, { headers: { 'X-Forwarded-For': ip } });
    expect(rest.status).toBe(402);
    expect(await failure(as(null, ip).analyzer.analyze({ contract_address: clean() }))).toMatchObject({
      code: 'PAYMENT_REQUIRED',
      apiCode: 'payment_required',
    });
    // A signed-in wallet below the entry tier is still counted; entry and above are not.
    const none = await walletAtTier('none');
    expect((await failure(as(none.address, ip).analyzer.analyze({ contract_address: clean() }))).code).toBe('PAYMENT_REQUIRED');
    const entry = await walletAtTier('entry');
    const unlimited = graded(await as(entry.address, ip).analyzer.analyze({ contract_address: clean() }));
    expect(unlimited.is_honeypot).toBe(false);
    // Another IP has its own budget.
    expect(graded(await as(null, '198.51.100.78').analyzer.analyze({ contract_address: clean() })).is_honeypot).toBe(false);
  });
});
