import type { Context } from 'hono';
import type { IncomingMessage } from 'node:http';

/**
 * The client's IP: the socket's address, or the first X-Forwarded-For entry when TRUST_PROXY is
 * set (behind a load balancer). Without either (a serverless host), every request shares one key.
 */
export function clientIp(context: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = context.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  const incoming = (context.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? 'unknown';
}
