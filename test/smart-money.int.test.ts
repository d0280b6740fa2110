import { beforeEach, describe, expect, it } from 'vitest';
import { erc20Abi, parseEther, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { artifact } from '../server/chain/artifacts';
import { database, db } from '../server/core/db';
import { indexSmartMoney } from '../server/smart-money/indexer';
import { SMART_MONEY_LIMITS } from '../server/smart-money/wallets';
import { useTestChain } from './chain';
import { clawBalance, fund } from './money';
import { signIn } from './wallets';

const { chain, app } = useTestChain({ app: {} });
beforeEach(async () => {
  // the chain goes back with revert(); the indexer starts again near the head
  await db().smartMoneyCursor.deleteMany();
});

const deadline = () => BigInt(Math.floor(Date.now() / 1000) + 3600);
const vouch = () => chain.deployment.platformToken;

async function user(options: { claw?: number; entryTier?: boolean; scopes?: string[] } = {}) {
  const key = generatePrivateKey();
  const account = privateKeyToAccount(key);
  await chain.setEth(account.address, parseEther('100'));
  if (options.entryTier) await chain.giveTokens(account.address, 1_000_000n);
  const session = await signIn(app, account, { scopes: options.scopes });
  if (options.claw) await fund(account.address, options.claw);
  return { key, account, address: account.address, token: session.token };
}

async function send(key: Hex, to: Address, abiName: string, functionName: string, args: unknown[], value = 0n) {
  const wallet = chain.wallet(key);
  const hash = await wallet.writeContract({
    address: to,
    abi: artifact(abiName).abi,
    functionName,
    args,
    value,
    gas: 1_000_000n,
    account: wallet.account!,
    chain: wallet.chain,
  });
  const receipt = await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  expect(receipt.status).toBe('success');
  return hash;
}

const buy = (key: Hex, eth: string) =>
  send(
    key,
    chain.deployment.uniswapV2Router,
    'UniswapV2Router02',
    'swapExactETHForTokens',
    [0n, [chain.deployment.weth, vouch()], privateKeyToAccount(key).address, deadline()],
    parseEther(eth),
  );

async function sellAll(key: Hex) {
  const holder = privateKeyToAccount(key).address;
  const amount = await chain.client.readContract({ address: vouch(), abi: erc20Abi, functionName: 'balanceOf', args: [holder] });
  await send(key, vouch(), 'PlatformToken', 'approve', [chain.deployment.uniswapV2Router, amount]);
  return send(key, chain.deployment.uniswapV2Router, 'UniswapV2Router02', 'swapExactTokensForETH', [
    amount,
    0n,
    [vouch(), chain.deployment.weth],
    holder,
    deadline(),
  ]);
}

const eventsNamed = async (name: string, after: bigint) =>
  (
    await database().sql.query<{ data: any }>('SELECT data FROM events WHERE name = $1 AND id > $2 ORDER BY id', [
      name,
      after.toString(),
    ])
  ).map((row) => row.data);
const lastEventId = async () =>
  BigInt((await database().sql.query<{ id: string | null }>('SELECT max(id)::text AS id FROM events'))[0]?.id ?? '0');

describe('smart money: watch list, indexer, alerts, events', () => {
  it('turns a real swap by a tracked wallet into an event, alerts and emitted events; an untracked wallet is ignored', async () => {
    const watcher = await user({ entryTier: true });
    const whale = await user();
    const stranger = await user();
    const watched = await app.post(
      '/api/smart-money/watch',
      { wallet_address: whale.address.toLowerCase(), label: 'Whale' },
      { token: watcher.token },
    );
    expect(watched.status).toBe(201);
    expect(watched.body).toMatchObject({
      watching: true,
      created: true,
      wallet: { wallet_address: whale.address, label: 'Whale' },
    });
    const again = await app.post('/api/v1/smart-money/wallets', { wallet_address: whale.address }, { token: watcher.token });
    expect(again.status).toBe(201);
    expect(again.body.created).toBe(false);

    const before = await lastEventId();
    const buyHash = await buy(whale.key, '10'); // 10 ETH at the devnet's 3000 USD: 30,000 USD
    await buy(stranger.key, '10');
    expect(await indexSmartMoney()).toBe(1);
    expect(await indexSmartMoney()).toBe(0); // cursor moved on; nothing twice

    const events = await app.get(`/api/smart-money/events?wallet=${whale.address}`, { token: watcher.token });
    expect(events.status).toBe(200);
    expect(events.body.events).toHaveLength(1);
    const event = events.body.events[0];
    expect(event).toMatchObject({
      wallet_address: whale.address,
      action: 'swap',
      token_in: chain.deployment.weth,
      token_out: vouch(),
      amount_usd: 30000,
      usd_method: 'devnet_reference',
      tx_hash: buyHash,
      dex: 'uniswap_v2',
    });
    expect(event.amount_in_raw).toBe(parseEther('10').toString());
    expect(typeof event.block_number).toBe('number');

    const alerts = await app.get('/api/smart-money/alerts', { token: watcher.token });
    expect(alerts.status).toBe(200);
    expect(alerts.body.map((a: any) => a.type).sort()).toEqual(['large_swap', 'new_position']);
    expect(alerts.body.find((a: any) => a.type === 'large_swap')).toMatchObject({
      severity: 'medium',
      wallet_address: whale.address,
    });

    // emitted with the change
    expect(await eventsNamed('smart_money.swap', before)).toHaveLength(1);
    const alertEvents = await eventsNamed('smart_money.alert', before);
    expect(alertEvents).toHaveLength(2);
    expect(Object.keys(alertEvents[0]).sort()).toEqual(['created_at', 'id', 'message', 'severity', 'type', 'wallet_address']);
    expect(await eventsNamed('smart_money.large_swap', before)).toHaveLength(1);
    expect((await eventsNamed('smart_money.new_position', before))[0]).toMatchObject({
      token: { address: vouch() },
      position_size_usd: 30000,
    });

    // selling everything is an exit, and a win: the stranger's buy after the whale's raised the price
    const afterBuy = await lastEventId();
    await sellAll(whale.key);
    expect(await indexSmartMoney()).toBe(1);
    const exits = await eventsNamed('smart_money.exit', afterBuy);
    expect(exits).toHaveLength(1);
    expect(exits[0].token.address).toBe(vouch());
    expect(exits[0].realized_pnl_usd).toBeGreaterThan(0);

    const wallets = await app.get('/api/smart-money/wallets?search=whale', { token: watcher.token });
    expect(wallets.body.wallets).toHaveLength(1);
    expect(wallets.body.wallets[0].total_volume_usd).toBeGreaterThan(59_000);
    expect(wallets.body.wallets[0].win_rate).toBe(1);
    expect(wallets.body.wallets[0].last_active).not.toBeNull();

    // family B: min_usd filter and action
    const b = await app.get('/api/v1/smart-money/alerts?min_usd=50000', { token: watcher.token });
    expect(b.body.alerts).toEqual([]);
    const b2 = await app.get('/api/v1/smart-money/alerts?min_usd=0', { token: watcher.token });
    expect(b2.body.alerts.map((a: any) => a.type)).toContain('exit');
    const since = await app.get(
      `/api/v1/smart-money/events?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
      {
        token: watcher.token,
      },
    );
    expect(since.body.events).toEqual([]);
  });

  it('indexes a V3 swap relayed through the trade API, and flags unusual volume against the 30-day average', async () => {
    const watcher = await user({ entryTier: true });
    const trader = await user();
    await app.post('/api/v1/smart-money/wallets', { wallet_address: trader.address, label: 'Trader' }, { token: watcher.token });
    // three small V2 buys, then a V3 buy over 5x their average
    for (let i = 0; i < 3; i += 1) await buy(trader.key, '0.1');
    expect(await indexSmartMoney()).toBe(3);
    const q = (
      await app.get(`/api/v1/trade/quote?token_in=ETH&token_out=${vouch()}&amount_in=5&fee=3000`, { token: trader.token })
    ).body;
    const nonce = await chain.client.getTransactionCount({ address: trader.address });
    const signed = await trader.account.signTransaction({
      chainId: 8453,
      type: 'eip1559',
      to: q.transaction.to,
      data: q.transaction.data,
      value: BigInt(q.transaction.value),
      nonce,
      gas: 500_000n,
      maxFeePerGas: 10_000_000_000n,
      maxPriorityFeePerGas: 1_000_000n,
    });
    const relayed = await app.post('/api/v1/trade/swap', { signed_tx: signed }, { token: trader.token });
    expect(relayed.status).toBe(200);
    await chain.client.waitForTransactionReceipt({ hash: relayed.body.tx_hash, pollingInterval: 20 });
    expect(await indexSmartMoney()).toBe(1);
    const events = (await app.get(`/api/v1/smart-money/events?wallet=${trader.address}`, { token: watcher.token })).body.events;
    expect(events[0]).toMatchObject({ dex: 'uniswap_v3', tx_hash: relayed.body.tx_hash, amount_usd: 15000 });
    const alerts = await db().smartMoneyAlert.findMany({ where: { walletAddress: trader.address } });
    expect(alerts.map((a) => a.type).sort()).toEqual(['large_swap', 'new_position', 'unusual_volume']);
  });

  it('gates live data on the entry tier or a subscription (403), the preview is public', async () => {
    const free = await user();
    for (const path of [
      '/api/smart-money/wallets',
      '/api/smart-money/events',
      '/api/smart-money/alerts',
      '/api/v1/smart-money/wallets',
      '/api/v1/smart-money/events',
      '/api/v1/smart-money/alerts',
    ]) {
      const res = await app.get(path, { token: free.token });
      expect(res.status, path).toBe(403);
      expect(res.body.code).toBe('tier_required');
      expect((await app.get(path)).status, path).toBe(401);
    }
    const preview = await app.get('/api/smart-money/preview');
    expect(preview.status).toBe(200);
    expect(preview.body.events.every((e: any) => e._preview === true)).toBe(true);
    expect(preview.body.event_count).toBe(preview.body.events.length);
    expect(Object.keys(preview.body.webhook_payloads)).toEqual(
      expect.arrayContaining(['smart_money.swap', 'smart_money.new_position', 'smart_money.exit', 'smart_money.alert']),
    );
    expect(preview.body.upgrade).toMatchObject({ required_tier: 'entry', tokens_required: 1_000_000 });
    // the MCP tool follows the same gate
    expect((await app.post('/api/v1/mcp', { tool: 'get_smart_money_alerts', input: {} }, { token: free.token })).status).toBe(
      403,
    );
    const entry = await user({ entryTier: true });
    const tool = await app.post('/api/v1/mcp', { tool: 'get_smart_money_alerts', input: { min_usd: 0 } }, { token: entry.token });
    expect(tool.status).toBe(200);
  });

  it('subscribes monthly and quarterly through the ledger; early renewal extends; 402 when short', async () => {
    const me = await user({ claw: 3_600_000 });
    const monthly = await app.post('/api/v1/smart-money/subscribe', { plan: 'monthly' }, { token: me.token });
    expect(monthly.status).toBe(200);
    expect(monthly.body).toMatchObject({ subscribed: true, plan: 'monthly', claw_deducted: 1_000_000 });
    const first = Date.parse(monthly.body.expires_at);
    expect(first - Date.now()).toBeGreaterThan(29.9 * 86400_000);
    expect((await app.get('/api/v1/smart-money/alerts', { token: me.token })).status).toBe(200);
    const quarterly = await app.post('/api/v1/smart-money/subscribe', { plan: 'quarterly' }, { token: me.token });
    expect(quarterly.status).toBe(200);
    expect(Date.parse(quarterly.body.expires_at) - first).toBeGreaterThan(89.9 * 86400_000);
    expect(Date.parse(quarterly.body.expires_at) - first).toBeLessThan(90.1 * 86400_000);
    expect(await clawBalance(me.address)).toBe(100_000);
    const short = await app.post('/api/v1/smart-money/subscribe', { plan: 'monthly' }, { token: me.token });
    expect(short.status).toBe(402);
    expect(await clawBalance(me.address)).toBe(100_000);
    expect((await app.post('/api/v1/smart-money/subscribe', { plan: 'annual' }, { token: me.token })).status).toBe(400);
    expect((await app.post('/api/v1/smart-money/subscribe', { plan: 'monthly' })).status).toBe(401);
    const noScope = await user({ claw: 2_000_000, scopes: ['credits.read'] });
    expect((await app.post('/api/v1/smart-money/subscribe', { plan: 'monthly' }, { token: noScope.token })).status).toBe(403);
    expect(await clawBalance(noScope.address)).toBe(2_000_000);
    // an expired subscription no longer opens the gate
    await db().smartMoneySubscription.update({ where: { wallet: me.address }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await app.get('/api/v1/smart-money/alerts', { token: me.token })).status).toBe(403);
  });

  it('refuses bad watch requests and bad query parameters', async () => {
    const me = await user({ entryTier: true });
    expect((await app.post('/api/smart-money/watch', { wallet_address: 'nope' }, { token: me.token })).status).toBe(400);
    expect((await app.post('/api/smart-money/watch', {}, { token: me.token })).status).toBe(400);
    expect((await app.post('/api/smart-money/watch', { wallet_address: me.address })).status).toBe(401);
    expect((await app.get('/api/smart-money/wallets?limit=201', { token: me.token })).status).toBe(400);
    expect((await app.get('/api/v1/smart-money/events?limit=51', { token: me.token })).status).toBe(400);
    expect((await app.get('/api/smart-money/events?action=steal', { token: me.token })).status).toBe(400);
    expect((await app.get('/api/v1/smart-money/events?since=yesterday', { token: me.token })).status).toBe(400);
  });

  it('adding to the shared watch list needs smart_money.watch on both endpoints, for tokens and API keys', async () => {
    const narrow = await user({ scopes: ['smart_money.read'] });
    const target = privateKeyToAccount(generatePrivateKey()).address;
    for (const path of ['/api/smart-money/watch', '/api/v1/smart-money/wallets']) {
      const refused = await app.post(path, { wallet_address: target }, { token: narrow.token });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: 'missing_scope', details: { required_scope: 'smart_money.watch' } });
    }
    // An API key minted without scopes gets the read scopes only: refused too.
    const owner = await user();
    const minted = await app.post('/api/mint-api-key', { label: 'reader' }, { token: owner.token });
    expect(minted.status).toBe(201);
    const viaKey = await app.post(
      '/api/v1/smart-money/wallets',
      { wallet_address: target },
      { headers: { 'x-api-key': minted.body.api_key } },
    );
    expect(viaKey.status).toBe(403);
    expect(await db().smartMoneyWallet.count({ where: { walletAddress: target } })).toBe(0);
  });

  it('one wallet adds at most SMART_MONEY_LIMITS.perWallet entries to the shared watch list', async () => {
    const me = await user();
    const other = await user();
    const addresses = Array.from(
      { length: SMART_MONEY_LIMITS.perWallet },
      () => privateKeyToAccount(generatePrivateKey()).address,
    );
    await db().smartMoneyWallet.createMany({
      data: addresses.slice(1).map((walletAddress) => ({ walletAddress, addedBy: me.address })),
    });
    // The last free place, taken by one of several parallel requests only.
    const racing = await Promise.all(
      [addresses[0]!, ...Array.from({ length: 3 }, () => privateKeyToAccount(generatePrivateKey()).address)].map(
        (wallet_address) => app.post('/api/smart-money/watch', { wallet_address }, { token: me.token }),
      ),
    );
    expect(racing.filter((answer) => answer.status === 201)).toHaveLength(1);
    const over = racing.filter((answer) => answer.status === 409);
    expect(over).toHaveLength(3);
    expect(over[0]!.body).toMatchObject({ code: 'conflict', details: { limit: SMART_MONEY_LIMITS.perWallet } });
    expect(await db().smartMoneyWallet.count({ where: { addedBy: me.address } })).toBe(SMART_MONEY_LIMITS.perWallet);
    // A wallet already on the list answers created false without using the quota; another wallet has its own.
    expect((await app.post('/api/smart-money/watch', { wallet_address: addresses[1] }, { token: me.token })).body.created).toBe(
      false,
    );
    expect((await app.post('/api/v1/smart-money/wallets', { wallet_address: me.address }, { token: other.token })).status).toBe(
      201,
    );
  });
});
