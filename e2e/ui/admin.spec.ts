import { expect, test } from '@playwright/test';
import { bearerFor, openPage, seedAgent, signInWithKey, signInWithMockWallet, SAME_SITE } from './helpers';
import { ADMIN } from './wallets';

test('a signed-out visitor and a non-admin get a refusal, in the UI and in tRPC', async ({ page }) => {
  await openPage(page, '/admin');
  await expect(page.getByTestId('admin-refused')).toContainText('Sign in with an admin wallet');
  await expect(page.getByTestId('admin-agents')).toHaveCount(0);
  await expect(page.getByTestId('open-signals')).toHaveCount(0);
  await expect(page.getByTestId('admin-skills')).toHaveCount(0);
  const anonymous = await page.request.get('/api/trpc/admin.agents?input=%7B%7D');
  expect(anonymous.status()).toBe(401);

  // Signing in updates the server-rendered refusal at once (no reload).
  await signInWithMockWallet(page);
  await expect(page.getByTestId('admin-refused')).toContainText('not one of them');
  await expect(page.getByRole('link', { name: 'Admin' })).toHaveCount(0);
  for (const [path, method] of [
    ['admin.agents?input=%7B%7D', 'get'],
    ['admin.auditLog?input=%7B%7D', 'get'],
    ['admin.pauseAgent', 'post'],
    ['admin.openSignals?input=%7B%7D', 'get'],
    ['admin.skills?input=%7B%7D', 'get'],
    ['admin.failedDeliveries?input=%7B%7D', 'get'],
    ['admin.resolveSignal', 'post'],
    ['admin.hideSkill', 'post'],
    ['admin.rejectSkill', 'post'],
    ['admin.redeliver', 'post'],
  ] as const) {
    const response =
      method === 'get'
        ? await page.request.get(`/api/trpc/${path}`)
        : await page.request.post(`/api/trpc/${path}`, {
            headers: SAME_SITE,
            data: { ref: 'anything', id: 'anything', deliveryId: 'x' },
          });
    expect(response.status(), path).toBe(403);
    expect(((await response.json()) as { error: { data: { code: string } } }).error.data.code).toBe('FORBIDDEN');
  }
  await openPage(page, '/admin/audit');
  await expect(page.getByTestId('admin-refused')).toBeVisible();
});

test('an admin pauses an agent (no longer callable), unpauses it, and the audit log shows both', async ({ page, request }) => {
  const target = await seedAgent(request, 'Pause Target');
  const owner = { Authorization: `Bearer ${await bearerFor(request, target.account)}` };
  const made = await request.patch(`/api/v1/agents/${target.id}`, {
    headers: owner,
    data: { is_callable: true, invoke_url: 'http://127.0.0.1:9/invoke' },
  });
  expect(made.status(), await made.text()).toBe(200);
  const invokeInfo = async () => {
    const response = await request.get(`/api/agents/${target.id}/invoke`);
    return { status: response.status(), body: (await response.json()) as Record<string, unknown> };
  };
  expect(await invokeInfo()).toMatchObject({ status: 200, body: { callable: true, status: 'active' } });
  await openPage(page, '/');
  await signInWithKey(page.request, ADMIN);
  await openPage(page, '/admin');
  await expect(page.getByTestId('stats-chart')).toBeVisible();
  // Today's activity is visible: bars for the agents registered today, and the counts in words.
  await expect(page.getByTestId('stats-today')).toContainText(/Today \(UTC\): \d+ new agents?/);
  expect(await page.getByTestId('stats-chart').locator('.recharts-bar-rectangle').count()).toBeGreaterThan(0);
  await expect(page.getByTestId('stats-chart').locator('.recharts-line')).toHaveCount(0);
  await page.getByLabel('Search agents').fill('pause-target');
  const row = page.getByTestId('admin-agents').locator(`tr[data-handle="${target.handle}"]`);
  await expect(row.getByTestId('agent-status')).toHaveText('active');
  page.once('dialog', (dialog) => void dialog.accept());
  await row.getByRole('button', { name: 'Pause Pause Target' }).click();
  await expect(row.getByTestId('agent-status')).toHaveText('paused (by admin)');
  await page.screenshot({ path: 'docs/screenshots/admin-console-1440.png', fullPage: true });
  // A paused agent cannot be called: its invoke description answers 404 (spec).
  expect(await invokeInfo()).toMatchObject({ status: 404, body: { code: 'not_found' } });
  // The owner cannot lift an administrator's pause.
  const resume = await request.patch(`/api/v1/agents/${target.id}`, { headers: owner, data: { status: 'active' } });
  expect(resume.status()).toBe(403);

  await row.getByRole('button', { name: 'Unpause Pause Target' }).click();
  await expect(row.getByTestId('agent-status')).toHaveText('active');
  expect(await invokeInfo()).toMatchObject({ status: 200, body: { callable: true, status: 'active' } });

  await openPage(page, '/admin/audit');
  const log = page.getByTestId('audit-log');
  await expect(log).toContainText('agent.pause');
  await expect(log).toContainText('agent.unpause');
  await expect(log).toContainText(ADMIN.address.slice(0, 6));
  // Details read as a sentence and labelled fields, not raw JSON.
  await expect(log).toContainText(`Paused @${target.handle} (was active)`);
  await expect(log).toContainText(`Unpaused @${target.handle} (was paused)`);
  const details = log.getByTestId('audit-details').first();
  await expect(details.locator('dt', { hasText: 'Agent' })).toBeVisible();
  await expect(details.locator('dt', { hasText: 'Status before' })).toBeVisible();
  await expect(log).not.toContainText('{"');
  await page.screenshot({ path: 'docs/screenshots/admin-audit-log-1440.png', fullPage: true });
});
