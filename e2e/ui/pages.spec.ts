import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { callApi, collectConsoleErrors, fundedWallet, openPage, seedAgent } from './helpers';

const SCREENSHOTS = 'docs/screenshots';

test('every page: unique title, an h1, no console errors, no serious axe violations, 375 and 1440 px', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const agent = await seedAgent(request, 'Browse Target');
  // A second agent endorses the first, so the graph around it has an edge: its wallet holds platform
  // tokens (a tier), so its endorsement counts (docs/spec-decisions.md, endorser standing).
  const friendAccount = privateKeyToAccount(generatePrivateKey());
  const faucet = await request.post('/api/v1/devnet/faucet', {
    data: { wallet_address: friendAccount.address, platform_tokens: 1_000_000 },
  });
  expect(faucet.status(), await faucet.text()).toBe(200);
  const friend = await seedAgent(request, 'Browse Friend', friendAccount);
  const message = `Endorse agent ${agent.id} as trusted ${Math.floor(Date.now() / 1000)}`;
  const endorsed = await request.post(`/api/agents/${agent.id}/endorse`, {
    data: {
      endorser_wallet: friend.account.address,
      attestation_type: 'trusted',
      message,
      signature: await friend.account.signMessage({ message }),
    },
  });
  expect(endorsed.status(), await endorsed.text()).toBe(201);
  // A job with a bid and a staked signal, so the market pages have content to check.
  const poster = await fundedWallet(request);
  const bidder = await fundedWallet(request);
  const job = await callApi<{ job_id: string }>(request, poster.token, 'POST', '/api/v1/jobs', {
    title: 'Summarise the governance forum',
    description: 'A weekly digest of the forum threads.',
    required_skill: 'summarisation',
    bounty_claw: 8,
  });
  await callApi(request, bidder.token, 'POST', `/api/v1/jobs/${job.job_id}/bid`, {
    bid_claw: 6,
    eta_seconds: 86_400,
    proposal: 'Digest every Monday.',
  });
  const signal = await callApi<{ signal_id: string }>(request, poster.token, 'POST', '/api/v1/signals', {
    title: 'ETH outperforms BTC this week',
    body: 'The ratio broke its range.',
    signal_type: 'long',
    asset: 'ETH',
    confidence: 65,
    stake_claw: 2,
  });
  await callApi(request, bidder.token, 'POST', `/api/v1/signals/${signal.signal_id}/stake`, { stance: 'agree', amount_claw: 1 });
  const pages = [
    '/',
    '/agents',
    `/agents/${agent.handle}`,
    `/agents/${agent.id}`,
    '/graph',
    `/graph?agent=${agent.handle}`,
    '/analyze',
    '/jobs',
    `/jobs/${job.job_id}`,
    '/jobs/123e4567-e89b-12d3-a456-426614174000',
    '/signals',
    '/leaderboard',
    '/skills',
    '/me',
    '/admin',
    '/admin/audit',
  ];
  mkdirSync(SCREENSHOTS, { recursive: true });
  const titles = new Map<string, string>();
  for (const width of [1440, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    for (const path of pages) {
      const errors = collectConsoleErrors(page);
      await openPage(page, path);
      await page.waitForLoadState('networkidle');
      await expect(page.locator('[role="status"]:has-text("Loading")')).toHaveCount(0);
      await expect(page.locator('h1')).toHaveCount(1);
      const title = await page.title();
      expect(title, path).not.toBe('');
      if (width === 1440) titles.set(path, title);
      const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
      const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(
        serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        path,
      ).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} scrolls sideways at ${width}px`).toBeLessThanOrEqual(1);
      expect(errors, path).toEqual([]);
      if (path.startsWith('/graph?agent=')) await expect(page.getByText('2 agents, 1 edges')).toBeVisible();
      page.removeAllListeners('console');
      page.removeAllListeners('pageerror');
      const name =
        path === '/'
          ? 'home'
          : path === `/jobs/${job.job_id}`
            ? 'job'
            : path.slice(1).replace(/[/?=]/g, '-').replace(agent.handle, 'agent').replace(agent.id, 'agent-id');
      if (!name.includes('agent-id') && !name.startsWith('jobs-')) {
        await page.screenshot({ path: `${SCREENSHOTS}/${name}-${width}.png`, fullPage: width === 1440 });
      }
    }
  }
  // Unique titles (the two URLs of one agent name the same agent, as do the graph's two views).
  const distinct = new Set(
    [...titles.entries()].filter(([path]) => !path.includes(agent.id) && !path.includes('?agent=')).map(([, title]) => title),
  );
  expect(distinct.size).toBe(pages.length - 2);
});

test('the directory searches, filters and pages', async ({ page, request }) => {
  const names = ['Zephyr Alpha', 'Zephyr Beta', 'Quartz Gamma'];
  for (const name of names) await seedAgent(request, name);
  await openPage(page, '/agents');
  await page.getByLabel('Search by name, handle or wallet').fill('zephyr');
  await expect(page.getByTestId('agent-list').locator('li')).toHaveCount(2);
  await expect(page).toHaveURL(/search=zephyr/);
  await page.getByLabel('Tier').selectOption('enterprise');
  await expect(page.getByText('No agents match these filters.')).toBeVisible();
  await page.getByLabel('Tier').selectOption('');
  await page.getByLabel('Minimum trust').selectOption('200');
  await expect(page.getByText('No agents match these filters.')).toBeVisible();
  await openPage(page, '/agents/no-such-agent');
  await expect(page.getByRole('alert').filter({ hasText: 'No agent' })).toContainText('No agent with this id or handle');
});
