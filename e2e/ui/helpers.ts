import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Registers an agent through the REST API (family A), signed by `account` (a fresh wallet by default). */
export async function seedAgent(
  request: APIRequestContext,
  name: string,
  account: PrivateKeyAccount = privateKeyToAccount(generatePrivateKey()),
) {
  const message = `Register agent ${name} ${nowSeconds()}`;
  const response = await request.post('/api/register-agent', {
    data: {
      agentName: name,
      walletAddress: account.address,
      message,
      signature: await account.signMessage({ message }),
      bio: `${name}, seeded by the UI tests`,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return { ...((await response.json()) as { id: string; handle: string; name: string }), account };
}

/** Opens `path`, passing the bot check first when the browser has no pass yet (the widget solves it). */
export async function openPage(page: Page, path: string) {
  await page.goto(path);
  if (new URL(page.url()).pathname === '/bot-check') {
    await page.waitForURL((url) => url.pathname !== '/bot-check', { timeout: 30_000 });
  }
  await expect(page.locator('h1')).toBeVisible();
}

/** Signs in through the header button: wagmi's mock connector, the SIWE challenge, next-auth. */
export async function signInWithMockWallet(page: Page) {
  await page.getByRole('button', { name: 'Sign in with wallet' }).first().click();
  await expect(page.getByTestId('session-wallet')).toBeVisible();
}

/**
 * What a browser adds to a request from a page of this site: tRPC mutations refuse a POST without it
 * (server/trpc/serve.ts), so scripted calls made on the page's behalf send it too.
 */
export const SAME_SITE = { 'Sec-Fetch-Site': 'same-origin' };

/**
 * Signs in without a browser wallet, as the UI does it: the tRPC challenge, a personal_sign by
 * `account`, then next-auth's credentials callback (the session cookie lands in `request`'s jar).
 */
export async function signInWithKey(request: APIRequestContext, account: PrivateKeyAccount) {
  const challenge = await request.post('/api/trpc/auth.challenge', {
    headers: SAME_SITE,
    data: { wallet: account.address },
  });
  expect(challenge.status(), await challenge.text()).toBe(200);
  const { challenge_id, message } = ((await challenge.json()) as { result: { data: { challenge_id: string; message: string } } })
    .result.data;
  const { csrfToken } = (await (await request.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const signed = await request.post('/api/auth/callback/siwe', {
    form: { csrfToken, challengeId: challenge_id, signature: await account.signMessage({ message }), json: 'true' },
    maxRedirects: 0,
  });
  expect([200, 302]).toContain(signed.status());
  const session = (await (await request.get('/api/trpc/auth.session')).json()) as { result: { data: { wallet: string | null } } };
  expect(session.result.data.wallet).toBe(account.address);
  return { challenge_id, message };
}

/** Console errors a page logs, to assert there are none. */
export function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** A family B bearer token for `account` (challenge, personal_sign, verify). */
export async function bearerFor(request: APIRequestContext, account: PrivateKeyAccount): Promise<string> {
  const challenge = await request.post('/api/v1/auth/challenge', {
    data: { owner_wallet: account.address, agent_pubkey: `e2e-${Date.now()}` },
  });
  const { challenge: message, challenge_id } = (await challenge.json()) as { challenge: string; challenge_id: string };
  const verify = await request.post('/api/v1/auth/verify', {
    data: { challenge_id, signature: await account.signMessage({ message }) },
  });
  expect(verify.status()).toBe(200);
  return ((await verify.json()) as { token: string }).token;
}

/**
 * A wallet with 100 CLAW to spend: its family B token and the one-time welcome grant
 * (POST /api/v1/agents/bootstrap). `account` defaults to a fresh wallet.
 */
export async function fundedWallet(
  request: APIRequestContext,
  account: PrivateKeyAccount = privateKeyToAccount(generatePrivateKey()),
) {
  const token = await bearerFor(request, account);
  const boot = await request.post('/api/v1/agents/bootstrap', { data: {}, headers: { Authorization: `Bearer ${token}` } });
  expect(boot.status(), await boot.text()).toBe(200);
  return { account, token };
}

/** A JSON call to the REST API as `token`; fails the test unless the status is `expected`. */
export async function callApi<T = Record<string, unknown>>(
  request: APIRequestContext,
  token: string | null,
  method: 'GET' | 'POST',
  path: string,
  data?: unknown,
  expected = method === 'POST' ? 201 : 200,
): Promise<T> {
  const response = await request.fetch(path, {
    method,
    data,
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBe(expected);
  return (await response.json()) as T;
}

/** No serious axe violations and no sideways scroll, at 1440 and 375 px (the signed-in view). */
export async function checkAccessibleAtBothWidths(page: Page) {
  for (const width of [1440, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `scrolls sideways at ${width}px`).toBeLessThanOrEqual(1);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** The app's DATA_DIR (e2e/ui/serve.ts names it by the app's port). */
export const uiDataDir = () => path.join(tmpdir(), `vouchsafe-ui-e2e-${process.env.UI_E2E_PORT}`);

/** The bundled devnet's analyzer fixtures (DATA_DIR/devnet.json, docs/chain.md). */
export function devnetSampleTokens(): { address: `0x${string}`; symbol: string; kind: string }[] {
  const file = JSON.parse(readFileSync(path.join(uiDataDir(), 'devnet.json'), 'utf8')) as {
    sampleTokens: { address: `0x${string}`; symbol: string; kind: string }[];
  };
  return file.sampleTokens;
}

/** The bundled devnet's analyzer risk fixtures (issue 25; DATA_DIR/devnet.json `riskTokens`). */
export function devnetRiskTokens(): { address: `0x${string}`; symbol: string; kind: string; pair: `0x${string}` }[] {
  const file = JSON.parse(readFileSync(path.join(uiDataDir(), 'devnet.json'), 'utf8')) as {
    riskTokens: { address: `0x${string}`; symbol: string; kind: string; pair: `0x${string}` }[];
  };
  return file.riskTokens;
}
