import { createHmac, timingSafeEqual } from 'node:crypto';

// The bot check's pass: `<expiry unix seconds>.<HMAC-SHA256 of it>` in an HttpOnly cookie. Pure
// node:crypto, so the Next.js proxy can check it without loading the database.

export const BOT_COOKIE = 'vs_human';
/** Pages the check itself needs (and Next's own assets) are never challenged. */
export const BOT_CHECK_PATH = '/bot-check';

function mac(secret: string, expires: number): string {
  return createHmac('sha256', `bot-check:${secret}`).update(String(expires)).digest('base64url');
}

export function signBotPass(secret: string, ttlSeconds: number, nowMs = Date.now()): { value: string; maxAge: number } {
  const expires = Math.floor(nowMs / 1000) + ttlSeconds;
  return { value: `${expires}.${mac(secret, expires)}`, maxAge: ttlSeconds };
}

export function isValidBotPass(secret: string, value: string | undefined | null, nowMs = Date.now()): boolean {
  if (!value) return false;
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!match) return false;
  const expires = Number(match[1]);
  if (expires * 1000 <= nowMs) return false;
  const expected = Buffer.from(mac(secret, expires));
  const given = Buffer.from(match[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * True for paths that must never carry the bot check: the API, /.well-known/ (machines: the A2A agent
 * card), the check itself, Next's assets, static files.
 */
export function isExemptFromBotCheck(pathname: string): boolean {
  return (
    pathname === '/api' ||
    pathname.startsWith('/.well-known/') ||
    pathname.startsWith('/api/') ||
    pathname === '/docs' ||
    pathname.startsWith('/.well-known/') ||
    pathname === BOT_CHECK_PATH ||
    pathname.startsWith(`${BOT_CHECK_PATH}/`) ||
    pathname.startsWith('/_next/') ||
    /\.(svg|png|ico|txt|xml|webmanifest|js|css|map)$/.test(pathname)
  );
}
