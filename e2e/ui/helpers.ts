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
 * Signs in without a browser wallet, as the UI does it: the tRPC challenge, a personal_sign by
 * `account`, then next-auth's credentials callback (the session cookie lands in `request`'s jar).
 */
export async function signInWithKey(request: APIRequestContext, account: PrivateKeyAccount) {
  const challenge = await request.post('/api/trpc/auth.challenge', { data: { wallet: account.address } });
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

/** The app's DATA_DIR (e2e/ui/serve.ts names it by the app's port). */
export const uiDataDir = () => path.join(tmpdir(), `vouchsafe-ui-e2e-${process.env.UI_E2E_PORT}`);

/** The bundled devnet's analyzer fixtures (DATA_DIR/devnet.json, docs/chain.md). */
export function devnetSampleTokens(): { address: `0x${string}`; symbol: string; kind: string }[] {
  const file = JSON.parse(readFileSync(path.join(uiDataDir(), 'devnet.json'), 'utf8')) as {
    sampleTokens: { address: `0x${string}`; symbol: string; kind: string }[];
  };
  return file.sampleTokens;
}
