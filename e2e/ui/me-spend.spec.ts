import { expect, test } from '@playwright/test';
import { callApi, checkAccessibleAtBothWidths, openPage, seedAgent, signInWithMockWallet } from './helpers';
import { MOCK } from './wallets';

test('set a key’s spend policy, then approve a held spend by signing its text', async ({ page, request }) => {
  await seedAgent(request, 'Mock Owner Agent', MOCK).catch(() => undefined);
  // A sign-in of the mock wallet under a policy (approval above 1 CLAW): its token and a new API key carry it.
  const pubkey = `e2e-spend-${Date.now()}`;
  const challenge = await callApi<{ challenge: string; challenge_id: string }>(
    request,
    null,
    'POST',
    '/api/v1/auth/challenge',
    { owner_wallet: MOCK.address, agent_pubkey: pubkey, spend_policy: { approval_above_claw: 1 } },
    200,
  );
  const signature = await MOCK.signMessage({ message: challenge.challenge });
  const { token, api_key_prefix: prefix } = await callApi<{ token: string; api_key_prefix: string }>(
    request,
    null,
    'POST',
    '/api/v1/auth/verify',
    { challenge_id: challenge.challenge_id, signature },
    200,
  );
  await callApi(request, token, 'POST', '/api/v1/agents/bootstrap', {}, 200);
  // A job whose 2 CLAW bounty is above the threshold waits for the owner's signed approval.
  const job = { title: 'Spend approval job', description: 'Held for approval', bounty_claw: 2 };
  const held = await callApi<{ code: string; details: { approval_id: string } }>(
    request,
    token,
    'POST',
    '/api/v1/jobs',
    job,
    402,
  );
  expect(held.code).toBe('approval_required');

  await openPage(page, '/me');
  await signInWithMockWallet(page);
  const label = `issued at sign-in for ${pubkey}`;
  const policies = page.getByTestId('spend-policies');
  await expect(policies.locator('li', { hasText: label })).toContainText('approval above 1 CLAW');
  await page.getByRole('combobox', { name: 'Key', exact: true }).selectOption({ label: `${label} (${prefix})` });
  await page.getByLabel('Most per call (CLAW; empty: no maximum)').fill('5');
  await page.getByLabel('Approval above (CLAW; empty: never)').fill('1');
  await page.getByRole('button', { name: 'Save policy' }).click();
  await expect(policies.locator('li', { hasText: label })).toContainText('max 5 CLAW per call · approval above 1 CLAW');

  const waiting = page.getByTestId('pending-approvals').locator(`li[data-approval-id="${held.details.approval_id}"]`);
  await expect(waiting).toContainText('2 CLAW');
  await checkAccessibleAtBothWidths(page);
  await waiting.getByRole('button', { name: 'Approve (sign)' }).click();
  await expect(waiting).toHaveCount(0);
  await expect(page.getByText('2 CLAW · job_escrow · approved')).toBeVisible();
  // The retry spends the approval.
  await callApi(request, token, 'POST', '/api/v1/jobs', job, 201);
});
