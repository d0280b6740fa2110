import { randomBytes } from 'node:crypto';
import { getAddress, hashMessage, keccak256 } from 'viem';
import { describe, expect, it } from 'vitest';
import { addressOfPublicKey, checksumAddress, keccak256Bytes, keccakReady, personalMessageDigest } from './keccak';

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;

describe('keccak (WebAssembly, with viem until it is ready)', () => {
  it('hashes like viem before and after the WebAssembly hasher is ready', async () => {
    const early = randomBytes(100);
    expect(hex(keccak256Bytes(early))).toBe(keccak256(early));
    await keccakReady();
    for (const size of [0, 1, 31, 32, 135, 136, 137, 1000]) {
      const data = randomBytes(size);
      expect(hex(keccak256Bytes(data))).toBe(keccak256(data));
    }
  });

  it('digests a personal_sign message as hashMessage does, multi-byte characters included', async () => {
    await keccakReady();
    for (const message of ['', 'hello', 'Sign in to Vouchsafe\nNonce: 1', 'é ü 😀 中文', 'x'.repeat(5000)]) {
      expect(hex(personalMessageDigest(message))).toBe(hashMessage(message));
    }
  });

  it('checksums an address as getAddress does, and derives it from a public key', async () => {
    await keccakReady();
    for (let i = 0; i < 50; i++) {
      const lower = `0x${randomBytes(20).toString('hex')}`;
      expect(checksumAddress(lower)).toBe(getAddress(lower));
    }
    const publicKey = new Uint8Array([4, ...randomBytes(64)]);
    expect(addressOfPublicKey(publicKey)).toBe(`0x${keccak256(publicKey.subarray(1)).slice(-40)}`);
  });
});
