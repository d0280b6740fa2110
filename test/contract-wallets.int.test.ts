import { describe, expect, it } from 'vitest';
import { encodeFunctionData, getAddress, hashMessage, keccak256, toHex, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { serializeErc6492Signature } from 'viem/utils';
import { artifact } from '../server/chain/artifacts';
import { DEPLOYER_KEY } from '../server/chain/devnet/deploy';
import { useTestChain } from './chain';
import { signedAction } from './wallets';

// Smart-contract wallets sign in and sign messages through the chain: ERC-1271 (a deployed wallet:
// our OwnerWallet1271 and a real Safe 1.4.1) and ERC-6492 (a wallet not deployed yet).

// The app talks to the chain through a recording proxy.
const { chain, app, recorder } = useTestChain({ app: { PUBLIC_BASE_URL: 'https://vouchsafe.example' }, recorder: true });

async function deployOwnerWallet(owner: Address): Promise<Address> {
  const { abi, bytecode } = artifact('OwnerWallet1271');
  const hash = await chain.deployer.deployContract({
    abi,
    bytecode,
    args: [owner],
    account: chain.deployer.account!,
    chain: chain.deployer.chain,
  });
  const receipt = await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  return getAddress(receipt.contractAddress!);
}

async function challengeFor(wallet: Address) {
  const response = await app.post('/api/v1/auth/challenge', { owner_wallet: wallet, agent_pubkey: `pk-${wallet.slice(2, 10)}` });
  expect(response.status).toBe(200);
  return response.body as { challenge_id: string; challenge: string };
}

const verify = (challengeId: string, signature: Hex) => app.post('/api/v1/auth/verify', { challenge_id: challengeId, signature });

/** A Safe 1.4.1 owner's signature of `message` for the Safe (CompatibilityFallbackHandler's ERC-1271). */
async function safeSignature(owner: PrivateKeyAccount, safe: Address, message: string): Promise<Hex> {
  return owner.signTypedData({
    domain: { chainId: 8453, verifyingContract: safe },
    types: { SafeMessage: [{ name: 'message', type: 'bytes' }] },
    primaryType: 'SafeMessage',
    message: { message: hashMessage(message) },
  });
}

describe('ERC-1271 wallets', () => {
  it('a deployed contract wallet signs in with its owner key; a wrong owner is refused', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const wallet = await deployOwnerWallet(owner.address);

    const stranger = privateKeyToAccount(generatePrivateKey());
    const refused = await challengeFor(wallet);
    const wrong = await verify(refused.challenge_id, await stranger.signMessage({ message: refused.challenge }));
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('invalid_signature');

    const { challenge_id, challenge } = await challengeFor(wallet);
    const ok = await verify(challenge_id, await owner.signMessage({ message: challenge }));
    expect(ok.status).toBe(200);
    expect(ok.body.wallet_address).toBe(wallet);
    expect(ok.body.token).toEqual(expect.any(String));
  });

  it('a real Safe 1.4.1 signs in through its fallback handler', async () => {
    const owner = privateKeyToAccount(DEPLOYER_KEY);
    const safe = chain.deployment.safe;
    const { challenge_id, challenge } = await challengeFor(safe);
    const stranger = privateKeyToAccount(generatePrivateKey());
    expect((await verify(challenge_id, await safeSignature(stranger, safe, challenge))).status).toBe(401);
    const second = await challengeFor(safe);
    const ok = await verify(second.challenge_id, await safeSignature(owner, safe, second.challenge));
    expect(ok.status).toBe(200);
    expect(ok.body.wallet_address).toBe(safe);
  });

  it('signed messages (family A register) accept a contract wallet signature', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const wallet = await deployOwnerWallet(owner.address);
    const agentName = `Contract ${wallet.slice(2, 8)}`;
    const forged = await signedAction(privateKeyToAccount(generatePrivateKey()), `Register agent ${agentName}`);
    const refused = await app.post('/api/register-agent', { agentName, walletAddress: wallet, ...forged });
    expect(refused.status).toBe(401);
    const signed = await signedAction(owner, `Register agent ${agentName}`);
    const response = await app.post('/api/register-agent', { agentName, walletAddress: wallet, ...signed });
    expect(response.status).toBe(201);
  });
});

describe('signature headers', () => {
  it('authenticate a contract wallet (X-Agent-Address is the wallet, the owner signs)', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const wallet = await deployOwnerWallet(owner.address);
    const headers = async (signer: PrivateKeyAccount) => {
      const { message, signature } = await signedAction(signer, `List API keys ${Math.random().toString(36).slice(2, 10)}`);
      return { 'X-Agent-Address': wallet, 'X-Agent-Message': message, 'X-Message-Signature': signature };
    };
    const forged = await app.get('/api/list-api-keys', { headers: await headers(privateKeyToAccount(generatePrivateKey())) });
    expect(forged.status).toBe(401);
    const ok = await app.get('/api/list-api-keys', { headers: await headers(owner) });
    expect(ok.status).toBe(200);
  });
});

describe('ERC-6492 wallets (not deployed yet)', () => {
  it('an undeployed counterfactual wallet signs in; the wallet is still not deployed afterwards', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const factory = chain.deployment.ownerWalletFactory;
    const salt = keccak256(toHex('vouchsafe-6492'));
    const predicted = (await chain.client.readContract({
      address: factory,
      abi: artifact('OwnerWalletFactory').abi,
      functionName: 'predict',
      args: [owner.address, salt],
    })) as Address;
    expect(await chain.client.getCode({ address: predicted })).toBeUndefined();
    const factoryData = encodeFunctionData({
      abi: artifact('OwnerWalletFactory').abi,
      functionName: 'deploy',
      args: [owner.address, salt],
    });

    const { challenge_id, challenge } = await challengeFor(predicted);
    const wrapped = serializeErc6492Signature({
      address: factory,
      data: factoryData,
      signature: await owner.signMessage({ message: challenge }),
    });
    const ok = await verify(challenge_id, wrapped);
    expect(ok.status).toBe(200);
    expect(ok.body.wallet_address).toBe(getAddress(predicted));
    expect(await chain.client.getCode({ address: predicted })).toBeUndefined();

    const refused = await challengeFor(predicted);
    const stranger = privateKeyToAccount(generatePrivateKey());
    const bad = serializeErc6492Signature({
      address: factory,
      data: factoryData,
      signature: await stranger.signMessage({ message: refused.challenge }),
    });
    expect((await verify(refused.challenge_id, bad)).status).toBe(401);
  });
});

describe('plain wallets', () => {
  it('never touch the RPC when the signature is valid', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const { challenge_id, challenge } = await challengeFor(account.address);
    recorder.methods.length = 0;
    const ok = await verify(challenge_id, await account.signMessage({ message: challenge }));
    expect(ok.status).toBe(200);
    // Sign-in reads the tier (eth_call balanceOf, decimals); verification asked nothing else.
    expect(recorder.methods.filter((method) => method !== 'eth_call')).toEqual([]);
    expect(recorder.methods.length).toBeLessThanOrEqual(2);
  });

  it('a wrong EOA signature costs one cached getCode, and is refused', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const stranger = privateKeyToAccount(generatePrivateKey());
    recorder.methods.length = 0;
    for (let i = 0; i < 2; i++) {
      const { challenge_id, challenge } = await challengeFor(account.address);
      expect((await verify(challenge_id, await stranger.signMessage({ message: challenge }))).status).toBe(401);
    }
    expect(recorder.methods).toEqual(['eth_getCode']);
  });
});

describe('chain failure', () => {
  it('a contract-wallet signature while the node is down answers 503, not a wrong 401', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const wallet = await deployOwnerWallet(owner.address);
    const { challenge_id, challenge } = await challengeFor(wallet);
    recorder.down = true;
    try {
      const response = await verify(challenge_id, await owner.signMessage({ message: challenge }));
      expect(response.status).toBe(503);
      expect(response.body.code).toBe('chain_unavailable');
    } finally {
      recorder.down = false;
    }
    // The challenge was not consumed: the same signature works once the node is back.
    const again = await verify(challenge_id, await owner.signMessage({ message: challenge }));
    expect(again.status).toBe(200);
  });
});
