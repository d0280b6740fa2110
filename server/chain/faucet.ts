import { createWalletClient, formatEther, formatUnits, http, parseEther, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ApiError } from '../core/errors';
import { artifact } from './artifacts';
import { chain, rpcError } from './client';
import { DEPLOYER_KEY, USDC_DECIMALS } from './devnet/deploy';
import { tokenBalance, tokenDecimals } from './tokens';
import { devnetChain } from './viem-chain';

// POST /api/v1/devnet/faucet: on the bundled devnet only, mints platform tokens (the deployer owns
// the devnet token) and adds ETH for gas to a wallet, so a newcomer gets a tier in one call; also
// mints the devnet's USDC (the x402 payment token, docs/payments.md).

export const FAUCET_MAX_TOKENS = 100_000_000;
export const FAUCET_MAX_ETH = 100;

export async function useFaucet(wallet: Address, platformTokens: number, eth: number, usdc = 0) {
  const context = await chain().catch(() => null);
  if (!context || context.source !== 'devnet' || !context.devnet) {
    throw new ApiError('not_found', 'The faucet exists only on the bundled devnet (CHAIN_RPC_URL unset)');
  }
  const { client, devnet, rpcUrl } = context;
  const token = devnet.platformToken;
  if (usdc > 0 && !devnet.usdc) throw new ApiError('not_found', 'This devnet has no USDC token');
  try {
    const decimals = await tokenDecimals(token);
    let txHash: Hex | null = null;
    const deployer = createWalletClient({
      account: privateKeyToAccount(DEPLOYER_KEY),
      chain: devnetChain(context.chainId, rpcUrl),
      transport: http(rpcUrl),
    });
    if (usdc > 0 && devnet.usdc) {
      const hash = await deployer.writeContract({
        address: devnet.usdc,
        abi: artifact('DevUSDC').abi,
        functionName: 'mint',
        args: [wallet, BigInt(Math.round(usdc * 10 ** USDC_DECIMALS))],
        gas: 200_000n,
      });
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 30_000 });
      if (receipt.status !== 'success') throw new Error('the USDC mint reverted');
    }
    if (platformTokens > 0) {
      // Whole and fractional tokens without floats: at most 6 decimals are accepted.
      const micro = BigInt(Math.round(platformTokens * 1_000_000));
      const amount = (micro * 10n ** BigInt(decimals)) / 1_000_000n;
      txHash = await deployer.writeContract({
        address: token,
        abi: artifact('PlatformToken').abi,
        functionName: 'mint',
        args: [wallet, amount],
        gas: 200_000n,
      });
      const receipt = await client.waitForTransactionReceipt({ hash: txHash, pollingInterval: 50, timeout: 30_000 });
      if (receipt.status !== 'success') throw new Error('the mint reverted');
    }
    if (eth > 0) {
      const current = await client.getBalance({ address: wallet });
      const added = parseEther(eth.toString());
      await client.request({
        method: 'anvil_setBalance' as never,
        params: [wallet, `0x${(current + added).toString(16)}`] as never,
      });
    }
    const [balance, ethBalance, usdcBalance] = await Promise.all([
      tokenBalance(token, wallet),
      client.getBalance({ address: wallet }),
      devnet.usdc ? tokenBalance(devnet.usdc, wallet) : Promise.resolve(0n),
    ]);
    return {
      wallet_address: wallet,
      platform_token: token,
      platform_tokens_sent: platformTokens,
      eth_sent: eth,
      tx_hash: txHash,
      platform_token_balance: (balance / 10n ** BigInt(decimals)).toString(),
      eth_balance: formatEther(ethBalance),
      usdc: devnet.usdc ?? null,
      usdc_sent: usdc,
      usdc_balance: formatUnits(usdcBalance, USDC_DECIMALS),
    };
  } catch (error) {
    throw rpcError(error);
  }
}
