// The market pages (jobs board, job page, signals feed, leaderboard) over data made through the REST
// API, and a signed-in user acting through the UI, checked through the API (docs/ui.md).
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { bearerFor, callApi, fundedWallet, openPage, seedAgent, signInWithMockWallet } from './helpers';
import { ADMIN, MOCK } from './wallets';

const tag = () => randomBytes(4).toString('hex');

interface JobDetail {
  status: string;
  bounty_claw: number;
  requested_by_wallet: string;
  result: unknown;
  bids: { bid_id: string; bidder_wallet: string; bid_claw: number; eta_seconds: number; proposal: string; status: string }[];
}

test('the board, a job page, a signal with its stake totals and the leaderboard show API-made data', async ({
  page,
  request,
}) => {
  const run = tag();
  const poster = await seedAgent(request, `Market Poster ${run}`);
  const { token: posterToken } = await fundedWallet(request, poster.account);
  const { account: staker, token: stakerToken } = await fundedWallet(request);

  const job = await callApi<{ job_id: string }>(request, posterToken, 'POST', '/api/v1/jobs', {
    title: `Audit the vault contract ${run}`,
    description: 'Review the vault for reentrancy and rounding issues; report findings as JSON.',
    required_skill: 'solidity-audit',
    bounty_claw: 25,
  });
  await callApi(request, stakerToken, 'POST', `/api/v1/jobs/${job.job_id}/bid`, {
    bid_claw: 20,
    eta_seconds: 7200,
    proposal: `I will audit it in two hours ${run}`,
  });
  const signal = await callApi<{ signal_id: string }>(request, posterToken, 'POST', '/api/v1/signals', {
    title: `ETH breaks out ${run}`,
    body: 'Funding flipped positive while open interest climbs.',
    signal_type: 'long',
    asset: 'ETH',
    confidence: 80,
    stake_claw: 5,
  });
  await callApi(request, stakerToken, 'POST', `/api/v1/signals/${signal.signal_id}/stake`, {
    stance: 'disagree',
    amount_claw: 3,
  });
  const called = await callApi<{ signal_id: string }>(request, posterToken, 'POST', '/api/v1/signals', {
    title: `BTC holds support ${run}`,
    body: 'Called and resolved.',
    signal_type: 'insight',
    asset: 'BTC',
    confidence: 60,
    stake_claw: 2,
  });
  // Resolved by an admin, which pays at once (a publisher's resolution waits out the dispute window).
  const adminToken = await bearerFor(request, ADMIN);
  await callApi(request, adminToken, 'POST', `/api/v1/signals/${called.signal_id}/resolve`, { outcome: 'correct' }, 200);

  // The board: the job under its words, with bounty, status and bid count; a status filter hides it.
  await openPage(page, '/jobs');
  await page.getByLabel('Search jobs').fill(run);
  const item = page.getByTestId('job-list').locator('li', { hasText: `Audit the vault contract ${run}` });
  await expect(item).toContainText('25 CLAW');
  await expect(item).toContainText('bid');
  await expect(item).toContainText('1 bid');
  await expect(item).toContainText('skill solidity-audit');
  await expect(page).toHaveURL(new RegExp(`q=${run}`));
  await page.getByLabel('Status').selectOption('executing');
  await expect(page.getByText('No jobs match these filters.')).toBeVisible();
  await page.getByLabel('Status').selectOption('bid');
  await page.getByLabel('Required skill').fill('solidity-audit');
  await expect(page).toHaveURL(/status=bid&skill=solidity-audit/);
  await expect(item).toBeVisible();
  await item.getByRole('link').click();

  // The job page: title, bounty, poster and the bid.
  await expect(page).toHaveURL(`/jobs/${job.job_id}`);
  await expect(page.locator('h1')).toHaveText(`Audit the vault contract ${run}`);
  await expect(page).toHaveTitle(new RegExp(`Audit the vault contract ${run}`));
  await expect(page.getByTestId('job-bounty')).toHaveText('25 CLAW');
  await expect(page.getByTestId('job-status')).toHaveText('bid');
  await expect(page.getByTestId('job-poster')).toHaveText(poster.account.address);
  const bid = page.getByTestId('bid-list').locator('li');
  await expect(bid).toHaveCount(1);
  await expect(bid).toContainText('20 CLAW');
  await expect(bid).toContainText('2 h');
  await expect(bid).toContainText(`I will audit it in two hours ${run}`);
  await expect(bid).toContainText(staker.address.slice(0, 6));
  await expect(page.getByText('Sign in with your wallet to bid on this job.')).toBeVisible();

  // The feed: stake totals of the open signal, the outcome of the resolved one.
  await openPage(page, '/signals');
  const open = page.getByTestId('signal').filter({ hasText: `ETH breaks out ${run}` });
  await expect(open.getByTestId('agree-total')).toHaveText('0 CLAW');
  await expect(open.getByTestId('disagree-total')).toHaveText('3 CLAW');
  await expect(open.getByTestId('stake-totals')).toContainText('8 CLAW');
  await expect(open).toContainText('confidence 80%');
  const resolved = page.getByTestId('signal').filter({ hasText: `BTC holds support ${run}` });
  await expect(resolved.getByTestId('signal-outcome')).toHaveText('resolved: correct');
  await page.getByLabel('Signal type').selectOption('short');
  await expect(page.getByText('No signals match these filters.')).toBeVisible();
  await page.getByLabel('Signal type').selectOption('long');
  await page.getByLabel('Sort by').selectOption('most_staked');
  await expect(page).toHaveURL(/signal_type=long&sort=most_staked/);
  await expect(open).toBeVisible();

  // The leaderboard: 2 signals published (10 each) + 1 resolved correct (50) = 70, accuracy 100%.
  // The leaderboard is cached up to 60 s (spec): an earlier test may have loaded it before this data existed.
  test.setTimeout(180_000);
  await openPage(page, '/leaderboard');
  const row = page.getByTestId('leaderboard').locator('tr', { hasText: `Market Poster ${run}` });
  await expect(async () => {
    await page.reload();
    await expect(row).toContainText('70', { timeout: 3_000 });
  }).toPass({ timeout: 80_000, intervals: [5_000] });
  await expect(row).toContainText('100%');
  await expect(row).toContainText('bronze');
  await expect(row.getByRole('link', { name: `Market Poster ${run}` })).toHaveAttribute('href', `/agents/${poster.id}`);
  await page.getByLabel('Rank by').selectOption('accuracy');
  await expect(page).toHaveURL(/sort=accuracy/);
  await expect(page.getByTestId('leaderboard').locator('tbody tr').first()).toContainText(`Market Poster ${run}`);
});

test('signed in: post a job, bid, deliver and stake through the UI; the API shows each step', async ({ page, request }) => {
  const run = tag();
  const { token: mockToken } = await fundedWallet(request, MOCK);
  const { token: otherToken } = await fundedWallet(request);
  const balance = async () =>
    (await callApi<{ balance_claw: number }>(request, mockToken, 'GET', '/api/v1/credits')).balance_claw;
  const before = await balance();

  await openPage(page, '/jobs');
  await expect(page.getByText('Sign in with your wallet to post a job.', { exact: false })).toBeVisible();
  await signInWithMockWallet(page);
  const form = page.getByRole('form', { name: 'Post a job' });
  await form.getByLabel('Title').fill(`Index the pool events ${run}`);
  await form.getByLabel('Description').fill('Backfill swap events of the pool into a table.');
  await form.getByLabel('Required skill (optional)').fill('indexing');
  // More than the balance: 402, shown as such, and no job.
  await form.getByLabel('Bounty (CLAW)').fill('100000');
  await form.getByRole('button', { name: 'Post job' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The job was not posted' })).toContainText('402');
  await form.getByLabel('Bounty (CLAW)').fill('12');
  await form.getByRole('button', { name: 'Post job' }).click();
  await expect(page.getByTestId('job-posted')).toContainText('12 CLAW in escrow');
  const listed = await callApi<{
    jobs: { job_id: string; requested_by_wallet: string; bounty_claw: number; required_skill: string; status: string }[];
  }>(request, null, 'GET', `/api/v1/jobs?q=${run}`);
  expect(listed.jobs).toHaveLength(1);
  expect(listed.jobs[0]).toMatchObject({
    requested_by_wallet: MOCK.address,
    bounty_claw: 12,
    required_skill: 'indexing',
    status: 'open',
  });
  expect(await balance()).toBe(before - 12);
  await expect(page.getByTestId('job-list')).toContainText(`Index the pool events ${run}`);

  // Another wallet bids on it (API); the poster accepts through the job page.
  const mine = listed.jobs[0]!.job_id;
  await callApi(request, otherToken, 'POST', `/api/v1/jobs/${mine}/bid`, {
    bid_claw: 11,
    eta_seconds: 600,
    proposal: `On it ${run}`,
  });
  await page.getByTestId('job-posted').getByRole('link', { name: 'Open the job' }).click();
  await expect(page.locator('h1')).toHaveText(`Index the pool events ${run}`);
  await page.getByRole('button', { name: /Accept the bid from/ }).click();
  await expect(page.getByTestId('job-status')).toHaveText('executing');
  await expect(page.getByTestId('bid-list').locator('li')).toContainText('accepted');
  expect((await callApi<JobDetail>(request, null, 'GET', `/api/v1/jobs/${mine}`)).status).toBe('executing');

  // Bid on another wallet's job.
  const job = await callApi<{ job_id: string }>(request, otherToken, 'POST', '/api/v1/jobs', {
    title: `Translate the docs ${run}`,
    description: 'English to German.',
    bounty_claw: 15,
  });
  await openPage(page, `/jobs/${job.job_id}`);
  const bidForm = page.getByRole('form', { name: 'Bid on this job' });
  await bidForm.getByLabel('Your price (CLAW, at most the bounty)').fill('30');
  await bidForm.getByLabel('Delivery time (hours)').fill('3');
  await bidForm.getByLabel('Proposal').fill(`Native speaker ${run}`);
  await bidForm.getByRole('button', { name: 'Place bid' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The bid was refused' })).toContainText('422');
  await bidForm.getByLabel('Your price (CLAW, at most the bounty)').fill('9.5');
  await bidForm.getByRole('button', { name: 'Place bid' }).click();
  await expect(page.getByTestId('bid-list').locator('li')).toContainText(`Native speaker ${run}`);
  await expect(page.getByText('You bid 9.5 CLAW; it is pending.')).toBeVisible();
  const detail = await callApi<JobDetail>(request, null, 'GET', `/api/v1/jobs/${job.job_id}`);
  expect(detail.status).toBe('bid');
  expect(detail.bids).toEqual([
    expect.objectContaining({
      bidder_wallet: MOCK.address,
      bid_claw: 9.5,
      eta_seconds: 10_800,
      proposal: `Native speaker ${run}`,
    }),
  ]);

  // The poster accepts (API); the winner delivers through the page and is paid.
  await callApi(request, otherToken, 'POST', `/api/v1/jobs/${job.job_id}/accept`, { bid_id: detail.bids[0]!.bid_id }, 200);
  await page.reload();
  const deliver = page.getByRole('form', { name: 'Deliver the result' });
  await deliver.getByLabel('Result (JSON or plain text)').fill('{"translated_pages": 12}');
  await deliver.getByRole('button', { name: 'Submit result' }).click();
  await expect(page.getByTestId('job-status')).toHaveText('completed');
  await expect(page.getByText('"translated_pages": 12')).toBeVisible();
  const done = await callApi<JobDetail & { fee_claw: number }>(request, mockToken, 'GET', `/api/v1/jobs/${job.job_id}`);
  expect(done).toMatchObject({ status: 'completed', result: { translated_pages: 12 } });
  // A completed job says what the bidder was paid and the fee, as the API has them (not "escrowed").
  expect(done.fee_claw).toBe(0.75);
  const facts = page.getByTestId('job-facts');
  await expect(facts).not.toContainText('escrow');
  await expect(facts).toContainText('Bounty (paid out)');
  await expect(page.getByTestId('job-paid')).toContainText('14.25 CLAW');
  await expect(page.getByTestId('job-paid')).toContainText(MOCK.address.slice(0, 6));
  await expect(page.getByTestId('job-fee')).toHaveText('0.75 CLAW');

  // Stake on another wallet's signal: agree, then the other side is refused (409).
  const signal = await callApi<{ signal_id: string }>(request, otherToken, 'POST', '/api/v1/signals', {
    title: `SOL rotates up ${run}`,
    body: 'Rotation out of majors.',
    signal_type: 'long',
    asset: 'SOL',
    confidence: 55,
    stake_claw: 1,
  });
  await openPage(page, '/signals');
  const item = page.getByTestId('signal').filter({ hasText: `SOL rotates up ${run}` });
  await item.getByLabel('Stake (CLAW, at least 1)').fill('2');
  await item.getByRole('button', { name: 'Agree', exact: true }).click();
  await expect(item.getByTestId('agree-total')).toHaveText('2 CLAW');
  await item.getByRole('button', { name: 'Disagree' }).click();
  await expect(item.getByRole('alert')).toContainText('409');
  const staked = await callApi<{ agree_claw: number; stakes: { staker_wallet: string; stance: string; amount_claw: number }[] }>(
    request,
    null,
    'GET',
    `/api/v1/signals/${signal.signal_id}`,
  );
  expect(staked.agree_claw).toBe(2);
  expect(staked.stakes).toEqual([expect.objectContaining({ staker_wallet: MOCK.address, stance: 'agree', amount_claw: 2 })]);
  await page.screenshot({ path: 'docs/screenshots/signals-signed-in-1440.png', fullPage: true });
});
