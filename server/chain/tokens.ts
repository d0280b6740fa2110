import { erc20Abi, type Address } from 'viem';
import { sharedCache } from '../core/shared-state';
import { chain, rpcError } from './client';

// ERC-20 reads through the runtime's chain client. A failing node throws 502/503 (rpcError).

const decimalsCache = sharedCache<number>('chain.token-decimals', { ttlMs: 24 * 3600_000, dropOn: [] });

export async function tokenDecimals(token: Address): Promise<number> {
  const { client } = await chain();
  return decimalsCache().get(token, async () => {
    try {
      return Number(await client.readContract({ address: token, abi: erc20Abi, functionName: 'decimals' }));
    } catch (error) {
      throw rpcError(error);
    }
  });
}

export async function tokenBalance(token: Address, holder: Address): Promise<bigint> {
  const { client } = await chain();
  try {
    return await client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [holder] });
  } catch (error) {
    throw rpcError(error);
  }
}
