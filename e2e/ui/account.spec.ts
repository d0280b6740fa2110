import { expect, test } from '@playwright/test';
import { openPage, seedAgent, signInWithMockWallet, SAME_SITE } from './helpers';
import { MOCK } from './wallets';

test('sign in with the mock wallet, then sign out', async ({ page }) => {
  await openPage(page, '/');
  await signInWithMockWallet(page);
  await expect(page.getByTestId('session-wallet')).toContainText(MOCK.address.slice(0, 6));
  const session = await page.request.get('/api/auth/session');
  expect(((await session.json()) as { user?: { id?: string } }).user?.id).toBe(MOCK.address);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Sign in with wallet' })).toBeVisible();
  expect(await (await page.request.get('/api/auth/session')).json()).toBeNull();
});

test('a sign-in challenge is single use and bound to this domain', async ({ request, baseURL }) => {
  const response = await request.post('/api/trpc/auth.challenge', { headers: SAME_SITE, data: { wallet: MOCK.address } });
  const { challenge_id, message } = ((await response.json()) as { result: { data: { challenge_id: string; message: string } } })
    .result.data;
  expect(message).toContain(`${new URL(baseURL!).host} wants you to sign in with your Ethereum account`);
  expect(message).toContain('Expiration Time:');
  const signature = await MOCK.signMessage({ message });
  const signIn = async () => {
    const { csrfToken } = (await (await request.get('/api/auth/csrf')).json()) as { csrfToken: string };
    await request.post('/api/auth/callback/siwe', {
      form: { csrfToken, challengeId: challenge_id, signature, json: 'true' },
      maxRedirects: 0,
    });
    return ((await (await request.get('/api/auth/session')).json()) as { user?: { id: string } } | null)?.user?.id ?? null;
  };
  expect(await signIn()).toBe(MOCK.address);
  await request.post('/api/auth/signout', {
    form: { csrfToken: ((await (await request.get('/api/auth/csrf')).json()) as { csrfToken: string }).csrfToken, json: 'true' },
  });
  expect(await signIn()).toBeNull();
  // The API's sign-in does not accept a web challenge either.
  const verify = await request.post('/api/v1/auth/verify', { data: { challenge_id, signature } });
  expect(verify.status()).toBe(401);
});

test('endorse an agent end to end: the wallet signs the exact text and the API shows it', async ({ page, request }) => {
  const target = await seedAgent(request, 'Endorse Target');
  // Only registered agents may endorse: the mock wallet registers its own agent first (or has one).
  const message = `Register agent Mock Endorser ${Math.floor(Date.now() / 1000)}`;
  const registered = await request.post('/api/register-agent', {
    data: { agentName: 'Mock Endorser', walletAddress: MOCK.address, message, signature: await MOCK.signMessage({ message }) },
  });
  expect([200, 201, 409], await registered.text()).toContain(registered.status());
  await openPage(page, `/agents/${target.handle}`);
  // A new agent has no propagated score to show yet (not a relative 100 next to 0 / 280).
  await expect(page.getByTestId('trust-total')).toHaveText('0 / 280');
  await expect(page.getByTestId('propagated-trust')).toHaveText(/Propagated trust: — \(no endorsements yet/);
  await expect(page.getByTestId('endorse-explainer')).toBeHidden();
  await signInWithMockWallet(page);
  await expect(page.getByTestId('endorse-explainer')).toContainText('+10');
  await expect(page.getByTestId('endorse-explainer')).toContainText('+2 for a new connection');
  await page.getByLabel('Endorsement type').selectOption('security_audited');
  await page.getByRole('button', { name: 'Sign and endorse' }).click();
  await expect(page.getByTestId('endorse-result')).toContainText('Endorsed');
  // The card explains the whole change, component by component, as trust_impact counts it.
  await expect(page.getByTestId('endorse-result')).toHaveText(
    'Endorsed. Trust 0 → 12 (+12: +10 endorsements and attestations, +2 trust-graph connections).',
  );
  await expect(page.getByTestId('trust-total')).toContainText('12');
  await expect(page.getByTestId('propagated-trust')).toContainText('/ 100');
  await page.screenshot({ path: 'docs/screenshots/agent-endorsed-1440.png', fullPage: true });
  await expect(page.getByTestId('endorse-message')).toHaveText(
    new RegExp(`^Endorse agent ${target.id} as security_audited \\d{10}$`),
  );
  await expect(page.getByTestId('endorsement-list')).toContainText('security_audited');
  const listed = (await (await request.get(`/api/agents/${target.id}/endorse`)).json()) as {
    endorsements: { attestor_wallet: string; attestation_type: string }[];
  };
  expect(listed.endorsements).toContainEqual(
    expect.objectContaining({ attestor_wallet: MOCK.address, attestation_type: 'security_audited' }),
  );
  // A second endorsement of the same type is refused, and the page says so.
  await page.getByRole('button', { name: 'Sign and endorse' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Endorsement refused' })).toContainText('already endorsed');
});

test('mint an API key (shown once), use it, revoke it', async ({ page, request }) => {
  await seedAgent(request, 'Mock Owner Agent', MOCK).catch(() => undefined);
  await openPage(page, '/me');
  await signInWithMockWallet(page);
  await page.getByLabel('Label for a new key').fill('e2e key');
  await page.getByRole('checkbox', { name: 'credits.read' }).check();
  await page.getByRole('button', { name: 'Mint API key' }).click();
  const key = (await page.getByTestId('minted-key').textContent())!.trim();
  expect(key).toMatch(/^ck_/);
  const row = page.getByTestId('api-keys').locator('tr', { hasText: 'e2e key' });
  await expect(row.getByTestId('key-status')).toHaveText('active');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: 'docs/screenshots/me-signed-in-1440.png', fullPage: true });
  expect((await request.get('/api/v1/credits', { headers: { 'X-Api-Key': key } })).status()).toBe(200);
  // The list never shows the secret again.
  await page.reload();
  await expect(page.getByTestId('api-keys')).toBeVisible();
  expect(await page.content()).not.toContain(key);
  await page
    .getByTestId('api-keys')
    .locator('tr', { hasText: 'e2e key' })
    .getByRole('button', { name: /Revoke/ })
    .click();
  await expect(page.getByTestId('api-keys').locator('tr', { hasText: 'e2e key' }).getByTestId('key-status')).toHaveText(
    'revoked',
  );
  expect((await request.get('/api/v1/credits', { headers: { 'X-Api-Key': key } })).status()).toBe(401);
});

test('edit the agent profile and callable settings', async ({ page, request }) => {
  await seedAgent(request, 'Mock Owner Agent', MOCK).catch(() => undefined);
  await openPage(page, '/me');
  await signInWithMockWallet(page);
  const form = page.getByRole('form').first();
  await form.getByLabel('Bio').fill('Edited from the web UI');
  await form.getByLabel('Price per call (CLAW)').fill('1.5');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Saved.')).toBeVisible();
  const agent = (await (await request.get(`/api/v1/agents?search=mock-owner-agent`)).json()) as {
    agents: { bio: string; price_claw_per_call: number }[];
  };
  expect(agent.agents[0]).toMatchObject({ bio: 'Edited from the web UI', price_claw_per_call: 1.5 });

  // Once callers can reach it, a raise waits out its notice period and the page says so.
  await form.getByLabel('Other agents may call it').check();
  await form.getByLabel('Invoke URL').fill('http://127.0.0.1:9/invoke');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Saved.')).toBeVisible();
  await form.getByLabel('Price per call (CLAW)').fill('2.5');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByTestId('price-pending')).toContainText('Raised to 2.5 CLAW from');
  const after = (await (await request.get(`/api/v1/agents?search=mock-owner-agent`)).json()) as {
    agents: { price_claw_per_call: number }[];
  };
  expect(after.agents[0]!.price_claw_per_call).toBe(1.5);
});
