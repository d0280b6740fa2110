import { createRequire } from 'node:module';
import { runningRuntime } from '../core/runtime';
import { verifyContractSignature } from '../chain/contract-signatures';
import { hexToBytes, recoverMessageAddress, type Address, type Hex } from 'viem';
import { addressOfPublicKey, checksumAddress, personalMessageDigest } from './keccak';

// EIP-191 personal_sign verification. The native libsecp256k1 addon (prebuilt in its npm package)
// recovers a key in ~0.06 ms; viem's pure-JS path takes ~1.5 ms and is the fallback.

interface NativeSecp256k1 {
  ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed: boolean): Uint8Array;
}

function loadNative(): NativeSecp256k1 | null {
  try {
    return createRequire(import.meta.url)('secp256k1/bindings') as NativeSecp256k1;
  } catch {
    return null;
  }
}

const nativeAddon = loadNative();

/** The backend in use: the addon unless it failed to load or SIGNATURE_BACKEND=js. */
export function signatureBackend(): 'native' | 'js' {
  return nativeAddon && runningRuntime()?.config.SIGNATURE_BACKEND !== 'js' ? 'native' : 'js';
}

const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/** Half the secp256k1 group order: EIP-2 accepts only s <= n/2 (the other half is a malleated copy). */
const HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

/** True for a 65-byte signature whose s is in the upper half (EIP-2), which every check refuses. */
export function isHighS(signature: string): boolean {
  if (!SIGNATURE.test(signature)) return false;
  return BigInt(`0x${signature.slice(66, 130)}`) > HALF_ORDER;
}

/**
 * Verifies smart-contract wallets (ERC-1271, and ERC-6492 for undeployed ones) through the chain:
 * by default the chain layer's viem verifyMessage (server/chain/contract-signatures.ts); tests may
 * replace it. Plain wallets never need it.
 */
let contractVerifier: ((address: Address, message: string, signature: Hex) => Promise<boolean>) | null = null;

export function setContractSignatureVerifier(verifier: typeof contractVerifier): void {
  contractVerifier = verifier;
}

/** Recovers the signer of an EIP-191 message, or null when the signature is not a valid 65-byte ECDSA signature. */
export async function recoverSigner(message: string, signature: string): Promise<Address | null> {
  if (!SIGNATURE.test(signature) || isHighS(signature)) return null;
  const bytes = hexToBytes(signature as Hex);
  const v = bytes[64]!;
  const recid = v >= 27 ? v - 27 : v;
  if (recid !== 0 && recid !== 1) return null;
  try {
    const native = signatureBackend() === 'native' ? nativeAddon : null;
    if (native) {
      const publicKey = native.ecdsaRecover(bytes.subarray(0, 64), recid, personalMessageDigest(message), false);
      return checksumAddress(addressOfPublicKey(publicKey));
    }
    return await recoverMessageAddress({ message, signature: signature as Hex });
  } catch {
    return null;
  }
}

const MAX_CONTRACT_SIGNATURE_HEX = 2 + 2 * 16_384;

/**
 * True when `signature` is `address`'s EIP-191 signature of `message`: a plain wallet's, checked
 * locally (never touching the RPC), or a contract wallet's (ERC-1271, ERC-6492) through the chain.
 * Throws 502/503 (chain_error, chain_unavailable) when the chain is needed and fails.
 */
export async function verifyWalletSignature(address: Address, message: string, signature: string): Promise<boolean> {
  // A malleated ECDSA signature is refused before any path (including a contract verifier) sees it.
  if (isHighS(signature)) return false;
  const signer = await recoverSigner(message, signature);
  if (signer && signer.toLowerCase() === address.toLowerCase()) return true;
  if (signature.length > MAX_CONTRACT_SIGNATURE_HEX || !/^0x(?:[0-9a-fA-F]{2})+$/.test(signature)) return false;
  return (contractVerifier ?? verifyContractSignature)(address, message, signature as Hex);
}
