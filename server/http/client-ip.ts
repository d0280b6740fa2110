import type { RateLimitKey } from '../core/rate-limit-policies';
import type { Context } from 'hono';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIPv6 } from 'node:net';

/** What a door may tell the API about the connection (the Next.js door passes the client IP). */
export interface DoorEnv {
  incoming?: IncomingMessage;
  /** The node response under node:http (server.ts): headers every answer carries go straight onto it. */
  outgoing?: ServerResponse;
  clientIp?: string;
}

/**
 * The last X-Forwarded-For entry: the address the nearest proxy saw. Earlier entries are whatever
 * the client wrote, so they are never trusted.
 */
export function lastForwardedFor(header: string | null | undefined): string | undefined {
  const last = header?.split(',').at(-1)?.trim();
  return last || undefined;
}

/**
 * The client's IP: with TRUST_PROXY (one trusted proxy in front), the entry that proxy appended to
 * X-Forwarded-For; otherwise the address the door saw (the socket under server.ts, or what Next.js
 * reports through app/api/[...path]/route.ts).
 */
export function clientAddress(trustProxy: boolean, forwardedFor: string | null | undefined, seen: string | undefined): string {
  if (trustProxy) {
    const forwarded = lastForwardedFor(forwardedFor);
    if (forwarded) return forwarded;
  }
  return seen ?? 'unknown';
}

/** clientAddress() of a request that came through Hono. */
export function clientIp(context: Context, trustProxy: boolean): string {
  const env = context.env as DoorEnv | undefined;
  return clientAddress(
    trustProxy,
    trustProxy ? context.req.header('x-forwarded-for') : undefined,
    env?.clientIp ?? env?.incoming?.socket?.remoteAddress,
  );
}

/**
 * The subject a per-IP limit counts: an IPv4 address, or the /64 prefix of an IPv6 one (one
 * subscriber usually holds a whole /64, so counting single addresses would be no limit at all).
 */
export function rateLimitSubjectForIp(ip: string): string {
  const plain = ip.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');
  if (!isIPv6(plain)) return plain;
  const [head = '', tail = ''] = plain.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = plain.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group || '0', 16).toString(16))
    .join(':')}::/64`;
}

/**
 * The counter a policy keyed by `key` charges: one for everyone, the caller's wallet (when signed
 * in), or the client's IP (IPv6 by /64). The REST wrapper and the UI's procedures share it, so both
 * doors spend one budget.
 */
export function rateLimitSubject(key: RateLimitKey, wallet: string | null, ip: string): string {
  if (key === 'global') return 'all';
  if (key === 'caller' && wallet) return `w:${wallet}`;
  return `ip:${rateLimitSubjectForIp(ip)}`;
}
