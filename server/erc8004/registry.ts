import { getAddress, isAddress, type Address } from 'viem';
import { artifact } from '../chain/artifacts';
import { chain, rpcError, type ChainContext } from '../chain/client';
import { ApiError } from '../core/errors';

// ERC-8004 registries on the configured chain (docs/erc8004.md): how a registry is named
// (CAIP-10-style `eip155:<chainId>:<address>`) and the reads the link and the verifier make.

export const identityAbi = () => artifact('IdentityRegistry').abi;
export const reputationAbi = () => artifact('ReputationRegistry').abi;

/** `eip155:<chainId>:<address>` of the configured Identity registry. */
export function registryRef(context: ChainContext, address = context.addresses.erc8004IdentityRegistry): string {
  return `eip155:${context.chainId}:${address}`;
}

const REF = /^eip155:(\d{1,12}):(0x[0-9a-fA-F]{40})$/;

/** The Identity registry a caller named; only the configured one on this chain can be checked. */
export function parseRegistryRef(ref: string | undefined, context: ChainContext): Address {
  if (ref === undefined) return context.addresses.erc8004IdentityRegistry;
  const match = REF.exec(ref);
  if (!match || !isAddress(match[2]!, { strict: false })) {
    throw new ApiError('invalid_request', 'agent_registry must be eip155:<chainId>:<address>', { field: 'agent_registry' });
  }
  const address = getAddress(match[2]!);
  if (Number(match[1]) !== context.chainId || address !== context.addresses.erc8004IdentityRegistry) {
    throw new ApiError('unprocessable', 'Only the configured ERC-8004 Identity registry can be linked', {
      field: 'agent_registry',
      supported: registryRef(context),
    });
  }
  return address;
}

/** A uint256 token id from a decimal string or number. */
export function parseTokenId(raw: string | number): bigint {
  const text = String(raw);
  if (!/^\d{1,78}$/.test(text) || BigInt(text) >= 2n ** 256n) {
    throw new ApiError('invalid_request', 'erc8004_agent_id must be a uint256 in decimal', { field: 'erc8004_agent_id' });
  }
  return BigInt(text);
}

export interface OnChainIdentity {
  owner: Address;
  agentWallet: Address | null;
  agentUri: string;
}

/** ownerOf, getAgentWallet and tokenURI of a token; null when the token does not exist. */
export async function readIdentity(context: ChainContext, registry: Address, tokenId: bigint): Promise<OnChainIdentity | null> {
  const { client } = context;
  let owner: Address;
  try {
    owner = (await client.readContract({
      address: registry,
      abi: identityAbi(),
      functionName: 'ownerOf',
      args: [tokenId],
    })) as Address;
  } catch (error) {
    const text = String((error as Error).message);
    if (/revert|ERC721NonexistentToken|execution reverted/i.test(text)) return null;
    throw rpcError(error);
  }
  const [wallet, uri] = await Promise.all([
    client
      .readContract({ address: registry, abi: identityAbi(), functionName: 'getAgentWallet', args: [tokenId] })
      .then((value) => value as Address)
      .catch(() => null),
    client
      .readContract({ address: registry, abi: identityAbi(), functionName: 'tokenURI', args: [tokenId] })
      .then((value) => value as string)
      .catch(() => ''),
  ]);
  const agentWallet = wallet && wallet !== '0x0000000000000000000000000000000000000000' ? getAddress(wallet) : null;
  return { owner: getAddress(owner), agentWallet, agentUri: uri };
}

export async function requireChain(): Promise<ChainContext> {
  try {
    return await chain();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError('chain_unavailable', 'The chain is not available');
  }
}
