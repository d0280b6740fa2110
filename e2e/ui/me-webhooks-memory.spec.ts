import { expect, test } from '@playwright/test';
import { bearerFor, checkAccessibleAtBothWidths, openPage, seedAgent, signInWithMockWallet } from './helpers';
import { MOCK } from './wallets';

test('create a webhook (secret shown once), see it listed and its deliveries, delete it', async ({ page, request }) => {
  await seedAgent(request, 'Mock Owner Agent', MOCK).catch(() => undefined);
  await openPage(page, '/me');
  await signInWithMockWallet(page);
  const url = `https://127.0.0.1:9/hook-${Date.now()}`;
  await page.getByLabel('Webhook URL').fill(url);
  await page.getByRole('checkbox', { name: 'agent.registered' }).check();
  await page.getByRole('button', { name: 'Create webhook' }).click();
  const secret = (await page.getByTestId('webhook-secret').textContent())!.trim();
  expect(secret.length).toBeGreaterThanOrEqual(16);
  const item = page.getByTestId('webhooks').locator('li', { hasText: url });
  await expect(item.getByTestId('webhook-state')).toHaveText('active');
  // An agent registers: the webhook gets an agent.registered delivery (to a closed port, so it fails and waits to retry).
  await seedAgent(request, `Webhook Trigger ${Date.now() % 100000}`);
  await item.getByRole('button', { name: 'Show deliveries' }).click();
  const deliveries = item.getByTestId('deliveries');
  await expect(deliveries).toContainText('agent.registered', { timeout: 30_000 });
  await expect(deliveries.getByTestId('delivery-status').first()).toHaveText(/pending|delivering|failed/);
  await page.screenshot({ path: 'docs/screenshots/me-webhooks-1440.png', fullPage: true });
  await checkAccessibleAtBothWidths(page);
  await page.reload();
  await expect(page.getByTestId('webhooks')).toBeVisible();
  expect(await page.content()).not.toContain(secret);
  page.once('dialog', (dialog) => void dialog.accept());
  await page
    .getByTestId('webhooks')
    .locator('li', { hasText: url })
    .getByRole('button', { name: `Delete webhook ${url}` })
    .click();
  await expect(page.getByText(url)).toHaveCount(0);
});

test('the memory viewer shows a key set through the REST API, its value, and deletes it', async ({ page, request }) => {
  await seedAgent(request, 'Mock Owner Agent', MOCK).catch(() => undefined);
  await openPage(page, '/me');
  await signInWithMockWallet(page);
  const agents = (await (await page.request.get('/api/trpc/me.agents')).json()) as { result: { data: { agent_id: string }[] } };
  const agentId = agents.result.data[0]!.agent_id;
  const key = `e2e:note-${Date.now()}`;
  const headers = { Authorization: `Bearer ${await bearerFor(request, MOCK)}` };
  const put = await request.post(`/api/v1/agents/${agentId}/memory`, { headers, data: { key, value: { plan: 'buy the dip' } } });
  expect(put.status(), await put.text()).toBeLessThan(300);
  await page.reload();
  const row = page.getByTestId('memory-keys').locator(`tr[data-key="${key}"]`);
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: `View ${key}` }).click();
  await expect(page.getByTestId('memory-value')).toContainText('"plan": "buy the dip"');
  await checkAccessibleAtBothWidths(page);
  page.once('dialog', (dialog) => void dialog.accept());
  await row.getByRole('button', { name: `Delete ${key}` }).click();
  await expect(page.getByTestId('memory-keys').locator(`tr[data-key="${key}"]`)).toHaveCount(0);
  expect((await request.get(`/api/v1/agents/${agentId}/memory/${encodeURIComponent(key)}`, { headers })).status()).toBe(404);
});
