import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

// Credential formats. Secrets are random, shown once, and stored only as SHA-256 hashes:
// the secrets have 190+ bits of entropy, so a fast hash is safe and keeps lookups O(1).

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62(bytes: Buffer, length: number): string {
  let value = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  while (out.length < length) {
    out += BASE62[Number(value % 62n)];
    value /= 62n;
  }
  return out;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export const TOKEN_PREFIX = 'vst_';
export const TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

/** An opaque bearer token (vst_ + 43 base62 characters, 256 bits). */
export function newAccessToken(): string {
  return TOKEN_PREFIX + base62(randomBytes(32), 43);
}

export const API_KEY_PREFIX = 'ck_';
const API_KEY_BODY = 40;
const API_KEY_CHECKSUM = 6;
const API_KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${API_KEY_BODY + API_KEY_CHECKSUM}}$`);

function checksum(body: string): string {
  return base62(Buffer.from(crc32(body).toString(16).padStart(8, '0'), 'hex'), API_KEY_CHECKSUM);
}

/** A permanent API key: ck_ + 40 random base62 characters + a 6-character CRC-32 checksum. */
export function newApiKey(): { key: string; prefix: string } {
  const body = base62(randomBytes(32), API_KEY_BODY);
  const key = `${API_KEY_PREFIX}${body}${checksum(body)}`;
  return { key, prefix: apiKeyPrefix(key) };
}

/** The part of a key that is safe to show again (ck_ and 8 characters). */
export function apiKeyPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + 8);
}

/** Rejects mistyped or truncated keys without touching the database. */
export function isWellFormedApiKey(key: string): boolean {
  if (!API_KEY_PATTERN.test(key)) return false;
  const body = key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + API_KEY_BODY);
  return key.endsWith(checksum(body));
}
