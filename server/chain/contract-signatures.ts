import { type Address, type Hex } from 'viem';
import { isErc6492Signature } from 'viem/utils';
import { sharedCache } from '../core/shared-state';
import { chainIfEnabled, rpcError } from './client';

// Smart-contract wallet signatures (ERC-1271 deployed wallets, ERC-6492 for wallets not deployed
// yet, such as a new Coinbase Smart Wallet) are checked by viem's public-client verifyMessage,
// which asks the chain; nothing here validates signatures by hand.

const hasCode = sharedCache<boolean>('chain.has-code', { ttlMs: 60_000, maxEntries: 50_000, dropOn: [] });

/**
 * True when the chain says `signature` is `address`'s signature of `message`. False without a
 * chain, or for an address without code unless the signature is ERC-6492 wrapped (one cached
 * getCode per address: a wrong EOA signature costs no verification call). Throws 502/503 when the
 * node fails.
 */
export async function verifyContractSignature(address: Address, message: string, signature: Hex): Promise<boolean> {
  const context = await chainIfEnabled();
  if (!context) return false;
  const { client } = context;
  try {
    if (!isErc6492Signature(signature)) {
      const deployed = await hasCode().get(address, async () => {
        const code = await client.getCode({ address });
        return code !== undefined && code !== '0x';
      });
      if (!deployed) return false;
    }
    if (await client.verifyMessage({ address, message, signature })) return true;
    // viem reports a failed call as "not valid"; make sure a false is the wallet's answer and not
    // a node that failed (which must be a 502, not a wrong 401).
    await client.getBlockNumber({ cacheTime: 0 });
    return false;
  } catch (error) {
    throw rpcError(error);
  }
}
