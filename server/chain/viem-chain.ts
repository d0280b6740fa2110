import { defineChain, type Chain } from 'viem';

/**
 * The viem chain for CHAIN_ID. Deliberately without viem's Base contract list: its ERC-6492
 * verifier address does not exist on the devnet, and viem then verifies through a deployless call,
 * which works on any node.
 */
export function devnetChain(chainId: number, rpcUrl = 'http://127.0.0.1:8545'): Chain {
  return defineChain({
    id: chainId,
    name: chainId === 8453 ? 'Base' : `chain ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}
