import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { toClientEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { appendPaymentIdentifierToExtensions } from '@x402/extensions/payment-identifier';
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { erc20Abi, type Address } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORLD_X402 } from '../server/credits/accounts';
import { listX402Payments } from '../server/x402/list-payments';
import { TEST_KEYS, useTestChain } from './chain';
import { checkResponse } from './contract';
import { accountClaw, assertLedgerBalanced, clawBalance } from './money';
import { startTarget } from './targets';
import { newWallet, signIn } from './wallets';

// x402 end to end (issue 26): the real client (@x402/fetch + @x402/evm) pays on the devnet for each
// paid route; balances are checked on the chain (USDC) and in the ledger (CLAW).

const { chain, app } = useTestChain({
  app: { RATE_LIMIT_ANALYZE_FREE: '1/24h', X402_CLAW_PER_USDC: '1000', PRICE_NOTICE_SECONDS: '0', ALLOW_PRIVATE_URLS: 'true' },
});

let base: string;
let target: Awaited<ReturnType<typeof startTarget>>;
beforeAll(async () => {
  base = await app.listen();
  target = await startTarget();
});
afterAll(() => target?.close());

const usdc = () => chain.deployment.usdc! as Address;
const treasury = () => chain.deployment.treasury;
const usdcOf = (holder: Address) =>
  chain.client.readContract({ address: usdc(), abi: erc20Abi, functionName: 'balanceOf', args: [holder] });

/** A payer: a devnet dev account (10,000 USDC) and an x402 client signing with it. */
function payer(index: number, paymentId?: () => string | undefined) {
  const account: PrivateKeyAccount = privateKeyToAccount(TEST_KEYS[index]!);
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: toClientEvmSigner(account, chain.client as never) });
  // The devnet's USDC is not one of the package's known assets: allow it, as a wallet would configure.
  client.setSpendControls({ allowedAssets: [{ network: 'eip155:8453', asset: usdc(), maxAmountPerPayment: '10000000' }] });
  if (paymentId) {
    client.onBeforePaymentCreation(async ({ paymentRequired }) => {
      const id = paymentId();
      if (id && paymentRequired.extensions) appendPaymentIdentifierToExtensions(paymentRequired.extensions, id);
    });
  }
  return { account, client, fetch: wrapFetchWithPayment(fetch, client) };
}

async function json(response: Response) {
  const text = await response.text();
  return text ? JSON.parse(text) : null;
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

async function offer(response: Response): Promise<PaymentRequired> {
  expect(response.status).toBe(402);
  const header = response.headers.get('payment-required');
  expect(header).toBeTruthy();
  return decodePaymentRequiredHeader(header!);
}

describe('x402 payments', () => {
  it('tops up CLAW with USDC: 402 with a v2 PAYMENT-REQUIRED, then paid with @x402/fetch, PAYMENT-RESPONSE, balances on chain and in the ledger', async () => {
    const me = payer(0);
    const session = await signIn(app, me.account);
    const auth = { authorization: `Bearer ${session.token}` };

    const unpaid = await post('/api/v1/credits/topup', { amount_usdc: 2.5 }, auth);
    const required = await offer(unpaid);
    expect(required.x402Version).toBe(2);
    expect(required.accepts[0]).toMatchObject({
      scheme: 'exact',
      network: 'eip155:8453',
      asset: usdc(),
      payTo: treasury(),
      amount: '2500000',
      extra: { name: 'USD Coin', version: '2' },
    });
    expect(required.extensions?.['payment-identifier']).toBeTruthy();
    // The amount may be named in CLAW instead, or left out (1 USDC); never both.
    expect((await offer(await post('/api/v1/credits/topup', { amount_claw: 500 }, auth))).accepts[0]!.amount).toBe('500000');
    expect((await offer(await post('/api/v1/credits/topup', {}, auth))).accepts[0]!.amount).toBe('1000000');
    expect((await post('/api/v1/credits/topup', { amount_claw: 1, amount_usdc: 1 }, auth)).status).toBe(400);
    expect((await post('/api/v1/credits/topup', { amount_usdc: 0.0000001 }, auth)).status).toBe(400);
    const unpaidBody = await json(unpaid);
    expect(unpaidBody).toMatchObject({ code: 'payment_required', details: { x402: { amount: '2500000' } } });
    checkResponse('POST', '/api/v1/credits/topup', 402, 'application/json', unpaidBody);

    const [payerBefore, treasuryBefore] = await Promise.all([usdcOf(me.account.address), usdcOf(treasury())]);
    const paid = await me.fetch(`${base}/api/v1/credits/topup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ amount_usdc: 2.5 }),
    });
    const body = await json(paid);
    expect(paid.status, JSON.stringify(body)).toBe(200);
    checkResponse('POST', '/api/v1/credits/topup', 200, 'application/json', body);
    expect(body).toMatchObject({ credited: true, amount_usdc: '2.5', amount_claw: 2500, wallet_address: me.account.address });
    const settlement = decodePaymentResponseHeader(paid.headers.get('payment-response')!);
    expect(settlement).toMatchObject({ success: true, network: 'eip155:8453', payer: me.account.address });
    expect(settlement.transaction).toBe(body.tx_hash);

    expect(await usdcOf(me.account.address)).toBe(payerBefore - 2_500_000n);
    expect(await usdcOf(treasury())).toBe(treasuryBefore + 2_500_000n);
    expect(await clawBalance(me.account.address)).toBe(2500);
    expect(await accountClaw(WORLD_X402)).toBe(-2500);
    await assertLedgerBalanced();

    // The activity shows the payment.
    const activity = await app.get('/api/v1/credits', { token: session.token });
    expect(activity.body.transactions[0]).toMatchObject({ reason: 'x402_topup', direction: 'credit', amount_claw: 2500 });
  });

  it('funds wallets with the devnet USDC: dev accounts at deployment, any wallet through the faucet', async () => {
    expect(await chain.client.readContract({ address: usdc(), abi: erc20Abi, functionName: 'decimals' })).toBe(6);
    expect(await usdcOf(privateKeyToAccount(TEST_KEYS[7]!).address)).toBe(10_000_000_000n);
    const wallet = newWallet().address;
    const faucet = await app.post('/api/v1/devnet/faucet', { wallet_address: wallet, usdc: 12.5 });
    expect(faucet.status).toBe(200);
    expect(faucet.body).toMatchObject({ usdc: usdc(), usdc_sent: 12.5, usdc_balance: '12.5' });
    expect(await usdcOf(wallet)).toBe(12_500_000n);
  });

  it('refuses a replayed authorization and an underpaid one; nothing moves', async () => {
    const me = payer(1);
    const unpaid = await post('/api/v1/credits/topup', { amount_usdc: 1 });
    const required = await offer(unpaid);
    const payload = await me.client.createPaymentPayload(required);
    const header = encodePaymentSignatureHeader(payload);

    const first = await post('/api/v1/credits/topup', { amount_usdc: 1 }, { 'payment-signature': header });
    expect(first.status).toBe(200);
    // Without credentials the CLAW goes to the wallet that paid.
    expect((await json(first)).wallet_address).toBe(me.account.address);
    const afterFirst = await usdcOf(me.account.address);

    const replay = await post('/api/v1/credits/topup', { amount_usdc: 1 }, { 'payment-signature': header });
    expect(replay.status).toBe(402);
    expect(replay.headers.get('payment-required')).toBeTruthy();
    expect(await json(replay)).toMatchObject({ code: 'payment_invalid', details: { reason: 'authorization_already_used' } });

    // An authorization signed for less than the price, presented as paying the price.
    const cheaper = { ...required, accepts: [{ ...required.accepts[0]!, amount: '999999' }] };
    const under = (await me.client.createPaymentPayload(cheaper)) as PaymentPayload;
    const underpaid = await post(
      '/api/v1/credits/topup',
      { amount_usdc: 1 },
      { 'payment-signature': encodePaymentSignatureHeader({ ...under, accepted: required.accepts[0]! }) },
    );
    const refused = await json(underpaid);
    expect(underpaid.status).toBe(402);
    expect(refused.code).toBe('payment_invalid');
    expect(refused.details.reason).toMatch(/value_mismatch/);

    expect(await usdcOf(me.account.address)).toBe(afterFirst);
    expect(await clawBalance(me.account.address)).toBe(1000);
    await assertLedgerBalanced();
  });

  it('makes a retried payment idempotent with payment-identifier: the first answer again, paid once', async () => {
    const id = `retry-${Date.now()}-abcdefgh`;
    const me = payer(2, () => id);
    const required = await offer(await post('/api/v1/credits/topup', { amount_usdc: 0.5 }));
    const before = await usdcOf(me.account.address);
    // Two different authorizations (fresh nonces) carrying the same payment id.
    const one = await me.client.createPaymentPayload(required);
    const two = await me.client.createPaymentPayload(required);
    expect(one.extensions?.['payment-identifier']).toMatchObject({ info: { id } });
    const first = await post(
      '/api/v1/credits/topup',
      { amount_usdc: 0.5 },
      { 'payment-signature': encodePaymentSignatureHeader(one) },
    );
    expect(first.status).toBe(200);
    const firstBody = await json(first);
    const again = await post(
      '/api/v1/credits/topup',
      { amount_usdc: 0.5 },
      { 'payment-signature': encodePaymentSignatureHeader(two) },
    );
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('payment-response')).toBeTruthy();
    expect(await json(again)).toEqual(firstBody);
    expect(await usdcOf(me.account.address)).toBe(before - 500_000n);
    expect(await clawBalance(me.account.address)).toBe(500);
  });

  it('analyses past the free limit: 402 with PAYMENT-REQUIRED and Retry-After, then paid with @x402/fetch', async () => {
    const me = payer(3);
    const token = chain.deployment.sampleTokens[0]!.address;
    const free = await post('/api/analyze', { contract_address: token });
    expect(free.status).toBe(200);
    const limited = await post('/api/analyze', { contract_address: token });
    const required = await offer(limited);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const limitedBody = await json(limited);
    expect(limitedBody).toMatchObject({
      code: 'payment_required',
      details: { reason: 'free_limit_reached', retry_after: expect.any(Number) },
    });
    checkResponse('POST', '/api/analyze', 402, 'application/json', limitedBody);
    expect(required.accepts[0]!.amount).toBe('20000');

    const before = await usdcOf(me.account.address);
    const paid = await me.fetch(`${base}/api/analyze`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contract_address: token }),
    });
    const body = await json(paid);
    expect(paid.status, JSON.stringify(body)).toBe(200);
    expect(body.safety_rating).toMatch(/^[A-F]$/);
    expect(decodePaymentResponseHeader(paid.headers.get('payment-response')!).success).toBe(true);
    expect(await usdcOf(me.account.address)).toBe(before - 20_000n);

    // A failed analysis (no contract) settles nothing.
    const nothing = await me.fetch(`${base}/api/analyze`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contract_address: newWallet().address }),
    });
    expect(nothing.status).toBe(422);
    expect(await usdcOf(me.account.address)).toBe(before - 20_000n);
  });

  it('invokes a priced agent paid in USDC: the router settles to X402_PAY_TO and pays the owner in CLAW', async () => {
    const owner = newWallet();
    const ownerSession = await signIn(app, owner);
    const created = await app.post('/api/v1/agents', { agent_name: 'Paid target' }, { token: ownerSession.token });
    const patched = await app.request('PATCH', `/api/v1/agents/${created.body.agent_id}`, {
      token: ownerSession.token,
      body: { is_callable: true, invoke_url: `${target.url}/echo`, price_claw_per_call: 30 },
    });
    expect(patched.status).toBe(200);

    const me = payer(4);
    const session = await signIn(app, me.account);
    await app.post('/api/v1/agents', { agent_name: 'Caller' }, { token: session.token });
    const auth = { authorization: `Bearer ${session.token}` };
    const path = `/api/v1/agents/${created.body.agent_id}/invoke`;

    // No CLAW: the 402 offers the price in USDC (30 CLAW at 1000 CLAW per USDC = 0.03 USDC).
    const unpaid = await post(path, { q: 1 }, auth);
    const required = await offer(unpaid);
    expect(required.accepts[0]!.amount).toBe('30000');
    expect((await json(unpaid)).code).toBe('insufficient_credits');

    const [payerBefore, treasuryBefore] = await Promise.all([usdcOf(me.account.address), usdcOf(treasury())]);
    const ownerBefore = await clawBalance(owner.address);
    const paid = await me.fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ q: 1 }),
    });
    const body = await json(paid);
    expect(paid.status, JSON.stringify(body)).toBe(200);
    checkResponse('POST', path, 200, 'application/json', body);
    expect(body).toMatchObject({ status: 'success', fee_claw: 30, response: { echo: { q: 1 } } });
    expect(decodePaymentResponseHeader(paid.headers.get('payment-response')!).success).toBe(true);
    expect(await usdcOf(me.account.address)).toBe(payerBefore - 30_000n);
    expect(await usdcOf(treasury())).toBe(treasuryBefore + 30_000n);
    expect((await clawBalance(owner.address)) - ownerBefore).toBe(30);
    expect(await clawBalance(me.account.address)).toBe(0);
    await assertLedgerBalanced();

    // The caller's /me activity lists the payment (the UI's me.x402Payments).
    expect(await listX402Payments(me.account.address)).toEqual([
      expect.objectContaining({ kind: 'invoke', status: 'settled', amount_usdc: '0.03', claw: 30, network: 'eip155:8453' }),
    ]);
  });

  it('refunds a paid invocation that fails as CLAW to the caller; a retry with its payment-identifier gets the same 502', async () => {
    const owner = newWallet();
    const ownerSession = await signIn(app, owner);
    const created = await app.post('/api/v1/agents', { agent_name: 'Failing target' }, { token: ownerSession.token });
    await app.request('PATCH', `/api/v1/agents/${created.body.agent_id}`, {
      token: ownerSession.token,
      body: { is_callable: true, invoke_url: `${target.url}/fail`, price_claw_per_call: 5 },
    });
    const id = `fail-${Date.now()}-abcdefgh`;
    const me = payer(5, () => id);
    const session = await signIn(app, me.account);
    const auth = { authorization: `Bearer ${session.token}` };
    const path = `/api/v1/agents/${created.body.agent_id}/invoke`;
    const required = await offer(await post(path, {}, auth));
    const before = await usdcOf(me.account.address);
    const pay = async () =>
      post(
        path,
        {},
        { ...auth, 'payment-signature': encodePaymentSignatureHeader(await me.client.createPaymentPayload(required)) },
      );
    const failed = await pay();
    expect(failed.status).toBe(502);
    expect(await json(failed)).toMatchObject({
      code: 'upstream_error',
      details: { refunded_claw: 5, refunded_to: 'claw_balance' },
    });
    expect(failed.headers.get('payment-response')).toBeTruthy();
    expect(await usdcOf(me.account.address)).toBe(before - 5_000n);
    expect(await clawBalance(me.account.address)).toBe(5);
    expect(await clawBalance(owner.address)).toBe(0);
    // The same payment id with a fresh authorization: the first answer, nothing paid or forwarded again.
    const calls = target.calls.length;
    const again = await pay();
    expect(again.status).toBe(502);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(target.calls.length).toBe(calls);
    expect(await usdcOf(me.account.address)).toBe(before - 5_000n);
    await assertLedgerBalanced();
  });
});
