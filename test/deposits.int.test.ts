import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erc20Abi, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { artifact } from '../server/chain/artifacts';
import { DEPLOYER_KEY, TREASURY_KEY } from '../server/chain/devnet/deploy';
import { TOKEN_UNIT, useTestChain } from './chain';
import { startTestApp, type TestApp } from './harness';
import { clawBalance } from './money';
import { signIn } from './wallets';

// POST /api/v1/credits/deposit against real ERC-20 transfers on the devnet.

const { chain, app, recorder } = useTestChain({ app: {}, recorder: true });

interface Depositor {
  key: Hex;
  account: PrivateKeyAccount;
  token: string;
}

/** A wallet with ETH, `tokens` platform tokens and a bearer token. */
async function depositor(tokens = 1000n): Promise<Depositor> {
  const key = generatePrivateKey();
  const account = privateKeyToAccount(key);
  await chain.setEth(account.address, 10n ** 18n);
  if (tokens > 0n) await chain.giveTokens(account.address, tokens);
  const { token } = await signIn(app, account);
  return { key, account, token };
}

const claim = (who: Depositor, txHash: string) => app.post('/api/v1/credits/deposit', { tx_hash: txHash }, { token: who.token });

describe('GET /api/v1/credits/deposit', () => {
  it('names the devnet treasury and the platform token', async () => {
    const response = await app.get('/api/v1/credits/deposit');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      chain_id: 8453,
      treasury_address: chain.deployment.treasury,
      accepted_tokens: [{ address: chain.deployment.platformToken, rate_claw_per_token: 1 }],
      confirmations: 0,
    });
  });
});

describe('POST /api/v1/credits/deposit', () => {
  it('credits 1 CLAW per token transferred to the treasury, once', async () => {
    const who = await depositor();
    const hash = await chain.transfer(
      who.key,
      chain.deployment.platformToken,
      chain.deployment.treasury,
      250n * TOKEN_UNIT + TOKEN_UNIT / 2n,
    );
    const response = await claim(who, hash);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ credited: true, amount_claw: 250.5, new_balance_claw: 250.5, tx_hash: hash });
    expect(await clawBalance(who.account.address)).toBe(250.5);

    const again = await claim(who, hash);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('deposit_already_claimed');
    expect(await clawBalance(who.account.address)).toBe(250.5);
    // The hash in another letter case is the same transaction.
    expect((await claim(who, hash.toUpperCase().replace('0X', '0x'))).status).toBe(409);
    const credits = await app.get('/api/v1/credits', { token: who.token });
    expect(credits.body.transactions).toEqual([
      expect.objectContaining({ direction: 'credit', amount_claw: 250.5, reason: 'deposit', ref_id: hash }),
    ]);
  });

  it('two concurrent claims of one hash credit once', async () => {
    const who = await depositor();
    const hash = await chain.transfer(who.key, chain.deployment.platformToken, chain.deployment.treasury, 100n * TOKEN_UNIT);
    const responses = await Promise.all([claim(who, hash), claim(who, hash), claim(who, hash)]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(await clawBalance(who.account.address)).toBe(100);
  });

  it('refuses a transfer from another wallet (403) and the other wallet can still claim it', async () => {
    const sender = await depositor();
    const other = await depositor(0n);
    const hash = await chain.transfer(sender.key, chain.deployment.platformToken, chain.deployment.treasury, 10n * TOKEN_UNIT);
    const stolen = await claim(other, hash);
    expect(stolen.status).toBe(403);
    expect(stolen.body).toMatchObject({ code: 'deposit_not_yours', details: { reason: 'sender_mismatch' } });
    expect(await clawBalance(other.account.address)).toBe(0);
    expect((await claim(sender, hash)).status).toBe(200);
  });

  it('refuses a transfer to another address (422 not_to_treasury)', async () => {
    const who = await depositor();
    const hash = await chain.transfer(
      who.key,
      chain.deployment.platformToken,
      privateKeyToAccount(generatePrivateKey()).address,
      TOKEN_UNIT,
    );
    const response = await claim(who, hash);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'deposit_invalid', details: { reason: 'not_to_treasury' } });
    expect(await clawBalance(who.account.address)).toBe(0);
  });

  it('refuses another token (422 token_not_accepted)', async () => {
    const who = await depositor(0n);
    const clean = chain.deployment.sampleTokens.find((token) => token.kind === 'mintable')!.address;
    await chain.transfer(DEPLOYER_KEY, clean, who.account.address, 50n * TOKEN_UNIT);
    const hash = await chain.transfer(who.key, clean, chain.deployment.treasury, 50n * TOKEN_UNIT);
    const response = await claim(who, hash);
    expect(response.status).toBe(422);
    expect(response.body.details.reason).toBe('token_not_accepted');
    expect(await clawBalance(who.account.address)).toBe(0);
  });

  it('refuses a failed transaction (422 transaction_failed)', async () => {
    const who = await depositor(1n);
    // More than the wallet holds: the transfer reverts, mined with an explicit gas limit.
    const hash = await chain.wallet(who.key).writeContract({
      address: chain.deployment.platformToken,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [chain.deployment.treasury, 5n * TOKEN_UNIT],
      gas: 100_000n,
      account: who.account,
      chain: chain.deployer.chain,
    });
    const receipt = await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    expect(receipt.status).toBe('reverted');
    const response = await claim(who, hash);
    expect(response.status).toBe(422);
    expect(response.body.details.reason).toBe('transaction_failed');
  });

  it('refuses a transaction without a transfer (422 no_transfer), an unknown hash (404), a malformed hash (400)', async () => {
    const who = await depositor();
    const approve = await chain.wallet(who.key).writeContract({
      address: chain.deployment.platformToken,
      abi: artifact('PlatformToken').abi,
      functionName: 'approve',
      args: [chain.deployment.treasury, 1n],
      account: who.account,
      chain: chain.deployer.chain,
    });
    await chain.client.waitForTransactionReceipt({ hash: approve, pollingInterval: 20 });
    expect((await claim(who, approve)).body.details.reason).toBe('no_transfer');
    const unknown = await claim(who, `0x${'ab'.repeat(32)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('transaction_not_found');
    const malformed = await claim(who, '0x1234');
    expect(malformed.status).toBe(400);
    expect(malformed.body.details.fields).toHaveProperty('tx_hash');
  });

  it('requires authentication', async () => {
    const response = await app.post('/api/v1/credits/deposit', { tx_hash: `0x${'ab'.repeat(32)}` });
    expect(response.status).toBe(401);
  });

  it('a node that is down answers 503 with Retry-After and credits nothing', async () => {
    const who = await depositor();
    const hash = await chain.transfer(who.key, chain.deployment.platformToken, chain.deployment.treasury, TOKEN_UNIT);
    recorder.down = true;
    try {
      const response = await claim(who, hash);
      expect(response.status).toBe(503);
      expect(response.body.code).toBe('chain_unavailable');
      expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      recorder.down = false;
    }
    // The failure counts in health for a minute, although the node answers again.
    const health = await app.get('/api/v1/health');
    expect(health.body.issues_count).toBe(1);
    expect(health.body.checks).toContainEqual(
      expect.objectContaining({ name: 'chain', ok: false, detail: expect.stringContaining('RPC failure') }),
    );
    expect(await clawBalance(who.account.address)).toBe(0);
    expect((await claim(who, hash)).status).toBe(200);
  });
});

describe('only real inflows are credited', () => {
  it('a transfer from the treasury to itself, claimed with the devnet treasury key, credits nothing (422 excluded_sender)', async () => {
    const treasury = privateKeyToAccount(TREASURY_KEY);
    await chain.giveTokens(treasury.address, 1000n);
    const { token } = await signIn(app, treasury);
    const hash = await chain.transfer(TREASURY_KEY, chain.deployment.platformToken, chain.deployment.treasury, 500n * TOKEN_UNIT);
    const response = await app.post('/api/v1/credits/deposit', { tx_hash: hash }, { token });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'deposit_invalid', details: { reason: 'excluded_sender' } });
    expect(await clawBalance(treasury.address)).toBe(0);
  });

  describe('a Safe treasury and DEPOSIT_EXCLUDED_SENDERS', () => {
    let safeApp: TestApp;
    // A platform account (listed in lowercase: the list accepts either form).
    const listedKey = generatePrivateKey();
    beforeAll(async () => {
      safeApp = await startTestApp(
        {
          TREASURY_ADDRESS: chain.deployment.safe,
          DEPOSIT_EXCLUDED_SENDERS: privateKeyToAccount(listedKey).address.toLowerCase(),
        },
        { chain },
      );
    });
    afterAll(() => safeApp?.close());

    const claimOn = async (key: Hex, tokens: bigint) => {
      const account = privateKeyToAccount(key);
      await chain.setEth(account.address, 10n ** 18n);
      await chain.giveTokens(account.address, tokens);
      const { token } = await signIn(safeApp, account);
      const hash = await chain.transfer(key, chain.deployment.platformToken, chain.deployment.safe, tokens * TOKEN_UNIT);
      return { account, response: await safeApp.post('/api/v1/credits/deposit', { tx_hash: hash }, { token }) };
    };

    it('the Safe’s owner cannot deposit into it, a configured platform account neither, a stranger can', async () => {
      const owner = await claimOn(DEPLOYER_KEY, 10n);
      expect(owner.response.status).toBe(422);
      expect(owner.response.body.details.reason).toBe('excluded_sender');
      expect(await clawBalance(owner.account.address)).toBe(0);

      const stranger = await claimOn(generatePrivateKey(), 7n);
      expect(stranger.response.status).toBe(200);
      expect(stranger.response.body.amount_claw).toBe(7);
    });

    it('a sender listed in DEPOSIT_EXCLUDED_SENDERS is never credited', async () => {
      const listed = await claimOn(listedKey, 5n);
      expect(listed.response.status).toBe(422);
      expect(listed.response.body.details.reason).toBe('excluded_sender');
      expect(await clawBalance(listed.account.address)).toBe(0);
    });
  });
});

describe('confirmations', () => {
  let confirmApp: TestApp;
  beforeAll(async () => {
    confirmApp = await startTestApp({ DEPOSIT_CONFIRMATIONS: '2' }, { chain });
  });
  afterAll(() => confirmApp?.close());

  it('answers 409 with the confirmations remaining until DEPOSIT_CONFIRMATIONS blocks are on top', async () => {
    const key = generatePrivateKey();
    const account = privateKeyToAccount(key);
    await chain.setEth(account.address, 10n ** 18n);
    await chain.giveTokens(account.address, 10n);
    const { token } = await signIn(confirmApp, account);
    const hash = await chain.transfer(key, chain.deployment.platformToken, chain.deployment.treasury, 10n * TOKEN_UNIT);
    const post = () => confirmApp.post('/api/v1/credits/deposit', { tx_hash: hash }, { token });
    const first = await post();
    expect(first.status).toBe(409);
    expect(first.body).toMatchObject({ code: 'deposit_pending', details: { confirmations: 0, confirmations_remaining: 2 } });
    await chain.mine(1);
    expect((await post()).body.details.confirmations_remaining).toBe(1);
    await chain.mine(1);
    const credited = await post();
    expect(credited.status).toBe(200);
    expect(credited.body.amount_claw).toBe(10);
  });

  it('a transaction still in the mempool is pending (409)', async () => {
    const key = generatePrivateKey();
    const account = privateKeyToAccount(key);
    await chain.setEth(account.address, 10n ** 18n);
    await chain.giveTokens(account.address, 10n);
    const { token } = await signIn(confirmApp, account);
    await chain.client.request({ method: 'evm_setAutomine' as never, params: [false] as never });
    try {
      const hash = await chain.wallet(key).writeContract({
        address: chain.deployment.platformToken,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [chain.deployment.treasury, TOKEN_UNIT],
        gas: 100_000n,
        account,
        chain: chain.deployer.chain,
      });
      const response = await confirmApp.post('/api/v1/credits/deposit', { tx_hash: hash }, { token });
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ code: 'deposit_pending', details: { confirmations: 0 } });
    } finally {
      await chain.client.request({ method: 'evm_setAutomine' as never, params: [true] as never });
    }
  });
});

describe('without a chain', () => {
  it('deposits answer 503', async () => {
    const bare = await startTestApp();
    try {
      const key = generatePrivateKey();
      const { token } = await signIn(bare, privateKeyToAccount(key));
      const response = await bare.post('/api/v1/credits/deposit', { tx_hash: `0x${'ab'.repeat(32)}` }, { token });
      expect(response.status).toBe(503);
      expect(response.body.code).toBe('chain_unavailable');
    } finally {
      await bare.close();
    }
  });
});
