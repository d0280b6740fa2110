import { createKeccak, type IHasher } from 'hash-wasm';
import { keccak256 as jsKeccak256, toBytes } from 'viem';

// Keccak-256 for the hot paths of signature checks (every sign-in hashes the EIP-191 message and the recovered
// public key). viem's is JavaScript, 85 µs a hash on the machine of docs/benchmarks.md; hash-wasm's WebAssembly
// one takes 5 µs. Its instance is made once, asynchronously: until it is ready (the first milliseconds of a
// process) viem's answers, with the same bytes.

let hasher: IHasher | null = null;
const ready = createKeccak(256).then(
  (made) => void (hasher = made),
  () => undefined,
);

/** Resolves once the WebAssembly hasher is in use (tests). */
export function keccakReady(): Promise<void> {
  return ready;
}

/** Keccak-256 of `data` (bytes), as 32 bytes. */
export function keccak256Bytes(data: Uint8Array): Uint8Array {
  if (!hasher) return jsKeccak256(data, 'bytes');
  hasher.init();
  hasher.update(data);
  return hasher.digest('binary');
}

const encoder = new TextEncoder();

/** The EIP-191 personal_sign digest of a text message (viem's hashMessage for a string). */
export function personalMessageDigest(message: string): Uint8Array {
  const body = encoder.encode(message);
  const prefix = encoder.encode(`\x19Ethereum Signed Message:\n${body.length}`);
  const data = new Uint8Array(prefix.length + body.length);
  data.set(prefix);
  data.set(body, prefix.length);
  return keccak256Bytes(data);
}

/** The lower-case 0x address of an uncompressed secp256k1 public key (65 bytes, 0x04 first). */
export function addressOfPublicKey(publicKey: Uint8Array): string {
  const hash = keccak256Bytes(publicKey.subarray(1));
  return `0x${Buffer.from(hash.subarray(12)).toString('hex')}`;
}

/** EIP-55 mixed-case checksum of a lower-case 0x address (viem's getAddress for a valid one). */
export function checksumAddress(lower: string): `0x${string}` {
  const hex = lower.slice(2);
  const hash = keccak256Bytes(toBytes(hex));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const nibble = (hash[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 0x0f;
    out += nibble >= 8 ? hex[i]!.toUpperCase() : hex[i]!;
  }
  return out as `0x${string}`;
}
