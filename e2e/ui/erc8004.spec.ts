import { expect, test } from '@playwright/test';
import { createPublicClient, http, parseAbi, type Address } from 'viem';
import { bearerFor, callApi, checkAccessibleAtBothWidths, openPage, signInWithMockWallet, uiDataDir } from './helpers';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MOCK } from './wallets';

// Issue 24 item 7: the owner links an agent to an ERC-8004 identity from /me, the wallet (wagmi's mock
// connector, whose eth_sendTransaction anvil signs for its dev account) sending register(agentURI) to the
// devnet the app reads; the agent page then shows the identity, and its A2A card names it.

const identityAbi = parseAbi([
  'function ownerOf(uint256 agentId) view returns (address)',
  'function tokenURI(uint256 agentId) view returns (string)',
]);

function devnet(): { rpcUrl: string; identityRegistry: Address } {
  const file = JSON.parse(readFileSync(path.join(uiDataDir(), 'devnet.json'), 'utf8')) as {
    erc8004: { identityRegistry: Address };
  };
  return { rpcUrl: `http://127.0.0.1:${process.env.UI_E2E_ANVIL_PORT}`, identityRegistry: file.erc8004.identityRegistry };
}

test('link an agent to an ERC-8004 identity from /me with the wallet sending the transaction; the agent page shows it; unlink', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  // A callable agent of the mock wallet's, so the agent page shows its A2A card too.
  const token = await bearerFor(request, MOCK);
  const name = `Chain Linked ${Date.now() % 100000}`;
  const created = await callApi<{ agent_id: string; handle: string }>(request, token, 'POST', '/api/v1/agents', {
    agent_name: name,
  });
  const patched = await request.fetch(`/api/v1/agents/${created.agent_id}`, {
    method: 'PATCH',
    headers: { Authorization: `Bearer ${token}` },
    data: { is_callable: true, invoke_url: 'https://agent.example/hook', price_claw_per_call: 1 },
  });
  expect(patched.status(), await patched.text()).toBe(200);

  await openPage(page, '/me');
  await signInWithMockWallet(page);
  const panel = page.locator(`[data-testid="me-erc8004"][data-agent-id="${created.agent_id}"]`);
  await expect(panel.getByRole('heading', { name: `ERC-8004 identity: ${name}` })).toBeVisible();
  await panel.getByRole('button', { name: 'Register with my wallet and link' }).click();
  const linked = panel.getByTestId('me-erc8004-linked');
  await expect(linked).toBeVisible({ timeout: 60_000 });
  const agentId = /agent #(\d+)/.exec((await linked.textContent())!)![1]!;
  const { rpcUrl, identityRegistry } = devnet();
  await expect(linked).toContainText(`eip155:8453:${identityRegistry}`);

  // The transaction really is on the devnet: the mock wallet owns the token, whose URI is the registration file.
  const client = createPublicClient({ transport: http(rpcUrl) });
  const owner = await client.readContract({
    address: identityRegistry,
    abi: identityAbi,
    functionName: 'ownerOf',
    args: [BigInt(agentId)],
  });
  expect(owner).toBe(MOCK.address);
  const uri = await client.readContract({
    address: identityRegistry,
    abi: identityAbi,
    functionName: 'tokenURI',
    args: [BigInt(agentId)],
  });
  expect(uri).toMatch(new RegExp(`/api/v1/agents/${created.agent_id}/registration.json$`));
  const record = await callApi<{ erc8004: { agent_id: string; agent_registry: string } | null }>(
    request,
    null,
    'GET',
    `/api/v1/agents/${created.agent_id}`,
  );
  expect(record.erc8004).toEqual({ agent_id: agentId, agent_registry: `eip155:8453:${identityRegistry}` });
  await checkAccessibleAtBothWidths(page);

  // The agent page: the identity, its on-chain feedback summary, and the A2A card naming it (pointing back).
  await openPage(page, `/agents/${created.handle}`);
  await expect(page.getByTestId('erc8004-link')).toContainText(`Agent #${agentId}`);
  await expect(page.getByTestId('erc8004-link')).toContainText('on-chain feedback');
  await expect(page.getByTestId('agent-card-signature')).toContainText('valid');
  await expect(page.getByTestId('agent-card-erc8004')).toContainText(`#${agentId}`);
  await expect(page.getByTestId('agent-card-erc8004')).toContainText('its registration points back');
  await checkAccessibleAtBothWidths(page);

  // Unlink from /me.
  await openPage(page, '/me');
  const again = page.locator(`[data-testid="me-erc8004"][data-agent-id="${created.agent_id}"]`);
  await again.getByRole('button', { name: 'Unlink' }).click();
  await expect(again.getByRole('button', { name: 'Register with my wallet and link' })).toBeVisible();
  const after = await callApi<{ erc8004: unknown }>(request, null, 'GET', `/api/v1/agents/${created.agent_id}`);
  expect(after.erc8004).toBeNull();
  // And link the same token back by its agentId (an identity the wallet already owns): no transaction needed.
  await again.getByLabel('Or link an identity your wallet already owns (agentId)').fill(agentId);
  await again.getByRole('button', { name: 'Link', exact: true }).click();
  await expect(again.getByTestId('me-erc8004-linked')).toContainText(`agent #${agentId}`);
});
