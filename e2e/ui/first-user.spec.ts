// What a first visitor meets (issue 19): real browser wallets (EIP-6963 and none), signing in on
// /admin, the API reference offline, and looking an agent up from the home page.
import { expect, test } from '@playwright/test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { checkAccessibleAtBothWidths, collectConsoleErrors, openPage, seedAgent } from './helpers';
import { injectWallets, withoutMockWallet } from './injected-wallet';
import { ADMIN } from './wallets';

const fresh = () => privateKeyToAccount(generatePrivateKey());

test.describe('browser wallets', () => {
  test.beforeEach(async ({ context, baseURL }) => withoutMockWallet(context, baseURL!));

  test('with no wallet at all the visitor reads what to install', async ({ page }) => {
    await openPage(page, '/');
    await page.getByRole('button', { name: 'Sign in with wallet' }).click();
    const hint = page.getByTestId('no-wallet');
    await expect(hint).toContainText('No browser wallet found');
    await expect(hint.getByRole('link', { name: 'MetaMask' })).toHaveAttribute('href', 'https://metamask.io/download/');
    await expect(page.getByText(/Provider not found/i)).toHaveCount(0);
    await expect(page.getByTestId('session-wallet')).toHaveCount(0);
  });

  test('a wallet that announces itself only through EIP-6963 signs in', async ({ page }) => {
    const account = fresh();
    await injectWallets(page, [{ account, name: 'Announce Only', rdns: 'dev.e2e.announce' }]);
    await openPage(page, '/');
    expect(await page.evaluate(() => 'ethereum' in window)).toBe(false);
    await page.getByRole('button', { name: 'Sign in with wallet' }).click();
    await expect(page.getByTestId('wallet-picker')).toHaveCount(0);
    await expect(page.getByTestId('session-wallet')).toContainText(account.address.slice(0, 6));
    const session = (await (await page.request.get('/api/auth/session')).json()) as { user?: { id?: string } };
    expect(session.user?.id).toBe(account.address);
  });

  test('with two EIP-6963 wallets the visitor picks one, and that one signs in', async ({ page }) => {
    const first = fresh();
    const second = fresh();
    await injectWallets(page, [
      { account: first, name: 'Amber Wallet', rdns: 'dev.e2e.amber', windowEthereum: true },
      { account: second, name: 'Indigo Wallet', rdns: 'dev.e2e.indigo' },
    ]);
    await openPage(page, '/');
    await page.getByRole('button', { name: 'Sign in with wallet' }).click();
    const picker = page.getByRole('group', { name: 'Choose a wallet' });
    await expect(picker.getByRole('button', { name: 'Amber Wallet' })).toBeVisible();
    await expect(picker.getByRole('button', { name: 'Indigo Wallet' })).toBeVisible();
    // Each announced wallet once: not a second, generic entry for window.ethereum.
    await expect(picker.getByRole('button')).toHaveCount(3);
    await page.screenshot({ path: 'docs/screenshots/wallet-picker-1440.png' });
    await checkAccessibleAtBothWidths(page);
    await picker.getByRole('button', { name: 'Indigo Wallet' }).click();
    await expect(page.getByTestId('session-wallet')).toContainText(second.address.slice(0, 6));
    const session = (await (await page.request.get('/api/auth/session')).json()) as { user?: { id?: string } };
    expect(session.user?.id).toBe(second.address);
  });

  test('an admin who signs in on /admin sees the console at once, and the refusal after signing out', async ({ page }) => {
    await injectWallets(page, [{ account: ADMIN, name: 'Admin Wallet', rdns: 'dev.e2e.admin' }]);
    await openPage(page, '/admin');
    await expect(page.getByTestId('admin-refused')).toContainText('Sign in with an admin wallet');
    await page.getByRole('button', { name: 'Sign in with wallet' }).click();
    await expect(page.getByTestId('session-wallet')).toContainText(ADMIN.address.slice(0, 6));
    // No reload: the server-rendered gate is refreshed with the new session.
    await expect(page.getByTestId('admin-refused')).toHaveCount(0);
    await expect(page.getByTestId('stats-chart')).toBeVisible();
    await expect(page.getByTestId('admin-agents')).toBeVisible();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByTestId('admin-refused')).toContainText('Sign in with an admin wallet');
    await expect(page.getByTestId('admin-agents')).toHaveCount(0);
  });
});

test('/docs and the main pages load nothing from another origin; /docs has an icon and no console errors', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const origin = new URL(baseURL!).origin;
  const foreign: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol === 'data:' || url.protocol === 'blob:') return;
    if (url.origin !== origin) foreign.push(`${page.url()} -> ${request.url()}`);
  });
  const errors = collectConsoleErrors(page);
  await page.goto('/docs');
  await expect(page.locator('.references-rendered')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('List agents').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  const icon = await page.locator('link[rel="icon"]').first().getAttribute('href');
  expect(icon).toBe('/favicon.svg');
  const iconResponse = await page.request.get(icon!);
  expect(iconResponse.status()).toBe(200);
  expect(iconResponse.headers()['content-type']).toContain('image/svg+xml');
  expect(errors, '/docs').toEqual([]);
  for (const path of ['/', '/agents', '/graph', '/jobs', '/signals', '/leaderboard', '/skills', '/analyze']) {
    await openPage(page, path);
    await page.waitForLoadState('networkidle');
  }
  expect(errors).toEqual([]);
  expect(foreign).toEqual([]);
});

test('the home page looks an agent up by name, handle or wallet, with suggestions', async ({ page, request }) => {
  const run = Date.now().toString(36);
  const agent = await seedAgent(request, `Lookup Heron ${run}`);
  await seedAgent(request, `Lookup Egret ${run}`);
  await openPage(page, '/');
  const box = page.getByRole('combobox', { name: 'Agent name, handle or wallet' });
  await box.fill(`heron ${run}`);
  const list = page.getByRole('listbox', { name: 'Matching agents' });
  await expect(list.getByRole('option')).toHaveCount(1);
  await expect(list.getByRole('option').first()).toContainText(`@${agent.handle}`);
  await page.screenshot({ path: 'docs/screenshots/home-lookup-1440.png' });
  await checkAccessibleAtBothWidths(page);
  await expect(list.getByRole('option')).toHaveCount(1);
  await list.getByRole('option').first().click();
  await expect(page).toHaveURL(new RegExp(`/agents/${agent.handle}$`));
  await expect(page.locator('h1')).toHaveText(`Lookup Heron ${run}`);

  // By the owner wallet's start, chosen with the keyboard.
  await openPage(page, '/');
  await box.fill(agent.account.address.slice(0, 12));
  await expect(list.getByRole('option').first()).toContainText(`@${agent.handle}`);
  await box.press('ArrowDown');
  await box.press('Enter');
  await expect(page.locator('h1')).toHaveText(`Lookup Heron ${run}`);

  // Several matches and Enter: the directory, filtered by the text.
  await openPage(page, '/');
  await box.fill(`lookup`);
  await expect(list.getByRole('option').first()).toBeVisible();
  await box.press('Enter');
  await expect(page).toHaveURL(/\/agents\?search=lookup/);
  await expect(page.getByTestId('agent-list')).toContainText(`Lookup Egret ${run}`);

  await openPage(page, '/');
  await box.fill(`nobody-${run}`);
  await expect(list).toContainText(`No agent matches`);
});
