import { expect, test, type APIRequestContext } from '@playwright/test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { bearerFor, checkAccessibleAtBothWidths, openPage, signInWithKey } from './helpers';
import { ADMIN } from './wallets';

/** A fresh wallet with an agent and the 100 CLAW welcome grant (family B bootstrap). */
async function fundedAgent(request: APIRequestContext) {
  const account = privateKeyToAccount(generatePrivateKey());
  const token = await bearerFor(request, account);
  const boot = await request.post('/api/v1/agents/bootstrap', { headers: { Authorization: `Bearer ${token}` }, data: {} });
  expect(boot.status(), await boot.text()).toBeLessThan(300);
  expect(((await boot.json()) as { welcome_claw: number }).welcome_claw).toBe(100);
  return { account, headers: { Authorization: `Bearer ${token}` } };
}

test('an admin resolves a staked signal after seeing the payouts preview; the API shows the payouts', async ({
  page,
  request,
}) => {
  const publisher = await fundedAgent(request);
  const disagreer = await fundedAgent(request);
  const title = `ETH flips BTC ${Date.now()}`;
  const published = await request.post('/api/v1/signals', {
    headers: publisher.headers,
    data: { title, body: 'Seeded by the UI tests', signal_type: 'long', asset: 'ETH', confidence: 70, stake_claw: 5 },
  });
  expect(published.status(), await published.text()).toBe(201);
  const id = ((await published.json()) as { signal_id: string }).signal_id;
  const staked = await request.post(`/api/v1/signals/${id}/stake`, {
    headers: disagreer.headers,
    data: { stance: 'disagree', amount_claw: 4 },
  });
  expect(staked.status(), await staked.text()).toBe(201);

  await openPage(page, '/');
  await signInWithKey(page.request, ADMIN);
  await openPage(page, '/admin');
  const card = page.getByTestId('open-signals').locator(`li[data-signal-id="${id}"]`);
  await card.getByRole('button', { name: `Resolve ${title}` }).click();
  await card.getByRole('radio', { name: 'incorrect' }).check();
  // incorrect: the disagreer gets its 4 back plus the publisher's 5 less the 3% fee (0.15)
  const preview = card.getByTestId('payouts-preview');
  await expect(preview.getByTestId('preview-fee')).toHaveText('0.15');
  await expect(preview.locator(`tr[data-wallet="${disagreer.account.address}"]`).getByTestId('payout')).toHaveText('8.85 CLAW');
  await expect(preview.locator(`tr[data-wallet="${publisher.account.address}"]`).getByTestId('payout')).toHaveText('0 CLAW');
  await page.screenshot({ path: 'docs/screenshots/admin-signal-preview-1440.png', fullPage: true });
  await checkAccessibleAtBothWidths(page);
  await card.getByRole('button', { name: 'Confirm: resolve as incorrect' }).click();
  await expect(card.getByTestId('resolved')).toContainText('Resolved as incorrect; fee 0.15 CLAW');

  const detail = (await (await request.get(`/api/v1/signals/${id}`)).json()) as {
    status: string;
    outcome: string;
    fee_claw: number;
    stakes: { staker_wallet: string; payout_claw: number }[];
  };
  expect(detail).toMatchObject({ status: 'resolved', outcome: 'incorrect', fee_claw: 0.15 });
  expect(detail.stakes).toEqual([expect.objectContaining({ staker_wallet: disagreer.account.address, payout_claw: 8.85 })]);
  const credits = (await (await request.get('/api/v1/credits', { headers: disagreer.headers })).json()) as {
    balance_claw: number;
  };
  expect(credits.balance_claw).toBe(104.85);

  await openPage(page, '/admin/audit');
  await expect(page.getByTestId('audit-log')).toContainText('signal.resolve');
});

test('an admin hides a skill: it leaves the REST skill lists, and comes back when shown again', async ({ page, request }) => {
  const author = privateKeyToAccount(generatePrivateKey());
  const faucet = await request.post('/api/v1/devnet/faucet', {
    data: { wallet_address: author.address, platform_tokens: 10_000_000 },
  });
  expect(faucet.status(), await faucet.text()).toBe(200);
  const headers = { Authorization: `Bearer ${await bearerFor(request, author)}` };
  expect((await request.post('/api/v1/agents', { headers, data: { agent_name: 'Skill Author' } })).status()).toBe(201);
  const name = `Hideable skill ${Date.now()}`;
  const created = await request.post('/api/skills', {
    headers,
    data: { name, description: 'A harmless skill seeded by the UI tests', category: 'analysis' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { id: string }).id;
  const listed = async (path: string) =>
    ((await (await request.get(path)).json()) as { skills: { id: string }[] }).skills.some((skill) => skill.id === id);
  expect(await listed('/api/skills?limit=100')).toBe(true);
  expect(await listed('/api/v1/skills?limit=100')).toBe(true);

  await openPage(page, '/');
  await signInWithKey(page.request, ADMIN);
  await openPage(page, '/admin');
  await page.getByLabel('Show').selectOption('all');
  await page.getByLabel('Search skills').fill(name);
  const row = page.getByTestId('admin-skills').locator(`li[data-skill-id="${id}"]`);
  await expect(row.getByTestId('skill-state')).toHaveText('active');
  page.once('dialog', (dialog) => void dialog.accept());
  await row.getByRole('button', { name: `Hide ${name}` }).click();
  await expect(row.getByTestId('skill-state')).toHaveText('active, hidden');
  expect(await listed('/api/skills?limit=100')).toBe(false);
  expect(await listed('/api/v1/skills?limit=100')).toBe(false);
  expect((await request.get(`/api/skills/${id}/install`)).status()).toBe(404);

  await row.getByRole('button', { name: `Unhide ${name}` }).click();
  await expect(row.getByTestId('skill-state')).toHaveText('active');
  expect(await listed('/api/v1/skills?limit=100')).toBe(true);
  await openPage(page, '/admin/audit');
  await expect(page.getByTestId('audit-log')).toContainText('skill.hide');
  await expect(page.getByTestId('audit-log')).toContainText('skill.unhide');
});
