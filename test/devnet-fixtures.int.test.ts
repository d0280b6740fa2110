import { describe, expect, it } from 'vitest';
import { erc20Abi, parseEther, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { artifact } from '../server/chain/artifacts';
import { useTestChain } from './chain';

// The devnet fixtures behave as devnet.json describes (the analyzer and trade features rely on it):
// real Uniswap V2 swaps, a V3 quote, a honeypot that cannot be sold, a fee-on-transfer token.

const { chain } = useTestChain();

const sample = (kind: string) => chain.deployment.sampleTokens.find((token) => token.kind === kind)!;
const deadline = () => BigInt(Math.floor(Date.now() / 1000) + 3600);

async function trader() {
  const key = generatePrivateKey();
  const account = privateKeyToAccount(key);
  await chain.setEth(account.address, parseEther('10'));
  return { key, account, wallet: chain.wallet(key) };
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
  return chain.client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
}

const balance = (token: Address, holder: Address) =>
  chain.client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [holder] });

async function buy(key: Hex, token: Address) {
  return send(
    key,
    chain.deployment.uniswapV2Router,
    'UniswapV2Router02',
    'swapExactETHForTokensSupportingFeeOnTransferTokens',
    [0n, [chain.deployment.weth, token], privateKeyToAccount(key).address, deadline()],
    parseEther('0.01'),
  );
}

async function sell(key: Hex, token: Address, amount: bigint) {
  await send(key, token, 'PlatformToken', 'approve', [chain.deployment.uniswapV2Router, amount]);
  return send(key, chain.deployment.uniswapV2Router, 'UniswapV2Router02', 'swapExactTokensForETHSupportingFeeOnTransferTokens', [
    amount,
    0n,
    [token, chain.deployment.weth],
    privateKeyToAccount(key).address,
    deadline(),
  ]);
}

describe('devnet fixtures', () => {
  it('a clean token can be bought and sold on Uniswap V2', async () => {
    const { key, account } = await trader();
    const token = sample('clean').address;
    expect((await buy(key, token)).status).toBe('success');
    const bought = await balance(token, account.address);
    expect(bought).toBeGreaterThan(0n);
    expect((await sell(key, token, bought)).status).toBe('success');
    expect(await balance(token, account.address)).toBe(0n);
  });

  it('the honeypot can be bought but not sold', async () => {
    const { key, account } = await trader();
    const token = sample('honeypot').address;
    expect((await buy(key, token)).status).toBe('success');
    const bought = await balance(token, account.address);
    expect(bought).toBeGreaterThan(0n);
    expect((await sell(key, token, bought)).status).toBe('reverted');
  });

  it('the fee-on-transfer token takes 10% of a transfer between holders', async () => {
    const { key, account } = await trader();
    const token = sample('fee_on_transfer').address;
    await buy(key, token);
    const held = await balance(token, account.address);
    const other = privateKeyToAccount(generatePrivateKey()).address;
    await chain.transfer(key, token, other, held);
    expect(await balance(token, other)).toBe(held - held / 10n);
  });

  it('QuoterV2 quotes the platform token pool on Uniswap V3', async () => {
    const { result } = await chain.client.simulateContract({
      address: chain.deployment.uniswapV3Quoter,
      abi: artifact('QuoterV2').abi,
      functionName: 'quoteExactInputSingle',
      args: [
        {
          tokenIn: chain.deployment.weth,
          tokenOut: chain.deployment.platformToken,
          amountIn: parseEther('0.01'),
          fee: 3000,
          sqrtPriceLimitX96: 0n,
        },
      ],
    });
    const [amountOut] = result as [bigint];
    // 100M tokens : 100 ETH, so 0.01 ETH buys about 10,000 tokens less the 0.3% fee.
    expect(amountOut).toBeGreaterThan(9_900n * 10n ** 18n);
    expect(amountOut).toBeLessThan(10_000n * 10n ** 18n);
  });

  it('the locked token’s LP sits in the locker and the clean token’s is burned', async () => {
    const locked = sample('locked_lp');
    const lockerLp = await balance(locked.pair!, chain.deployment.liquidityLocker);
    expect(lockerLp).toBeGreaterThan(0n);
    const clean = sample('clean');
    expect(await balance(clean.pair!, '0x000000000000000000000000000000000000dEaD')).toBeGreaterThan(0n);
  });

  it('deploys one risk-pattern token per analyzer check, each with a V2 pool holding 1M tokens and its LP burned', async () => {
    const kinds = chain.deployment.riskTokens.map((token) => token.kind).sort();
    expect(kinds).toEqual([
      'anti_whale',
      'balance_setter',
      'blacklist',
      'concentrated',
      'cooldown',
      'external_call',
      'hidden_owner',
      'pausable',
      'recoverable_owner',
      'selfdestruct',
      'sell_limit',
      'whitelist',
    ]);
    for (const token of chain.deployment.riskTokens) {
      expect(await balance(token.address, token.pair), token.kind).toBe(1_000_000n * 10n ** 18n);
      expect(await balance(token.pair, '0x000000000000000000000000000000000000dEaD'), token.kind).toBeGreaterThan(0n);
    }
    const whale = chain.deployment.riskTokens.find((token) => token.kind === 'concentrated')!;
    expect(await balance(whale.address, whale.account!)).toBe(9_000_000n * 10n ** 18n);
    // The clean token's deployer keeps nothing.
    expect(await balance(sample('clean').address, chain.deployment.deployer)).toBe(0n);
  });
});
