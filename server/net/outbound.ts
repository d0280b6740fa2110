import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isBlockedAddress } from './address-policy';

// The one outbound HTTP client (invoke, webhooks). It resolves the target itself and checks
// every resolved address at connect time, so a DNS answer cannot change between the check and
// the connection (no rebinding window). It never follows redirects and caps size and time.

export interface OutboundOptions {
  method?: 'POST' | 'GET';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  maxResponseBytes?: number;
  /** ALLOW_PRIVATE_URLS: skip the address rule (tests, local development). */
  allowPrivate: boolean;
  /** DNS resolution, replaceable in tests. */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
  /** Internal: this is the one retry after a kept-alive connection was found closed. */
  retried?: boolean;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  durationMs: number;
}

export type OutboundFailure = 'blocked_address' | 'timeout' | 'too_large' | 'network' | 'invalid_url';

export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundFailure,
    message: string,
  ) {
    super(message);
  }
}

export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

// Reused connections keep the address check: it runs when a connection is opened, and a kept
// connection stays bound to the address that passed it. Separate pools per address rule.
const keepAlive = { keepAlive: true, maxSockets: 256, maxFreeSockets: 64, timeout: 60_000 };
const agents = {
  guarded: { http: new http.Agent(keepAlive), https: new https.Agent(keepAlive) },
  open: { http: new http.Agent(keepAlive), https: new https.Agent(keepAlive) },
};

const systemResolve = (hostname: string) =>
  new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

function guardedLookup(options: OutboundOptions): LookupFunction {
  const resolve = options.resolve ?? systemResolve;
  return (hostname, lookupOptions, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const usable = options.allowPrivate ? addresses : addresses.filter((a) => !isBlockedAddress(a.address));
        // Any blocked answer taints the name: a mix of public and private records is a rebinding trick.
        if (usable.length === 0 || usable.length !== addresses.length) {
          callback(new OutboundError('blocked_address', `${hostname} resolves to a blocked address`), '', 4);
          return;
        }
        if ((lookupOptions as { all?: boolean }).all) callback(null, usable as never);
        else callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 4),
    );
  };
}

export function outboundRequest(rawUrl: string, options: OutboundOptions): Promise<OutboundResponse> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return Promise.reject(new OutboundError('invalid_url', 'invalid URL'));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return Promise.reject(new OutboundError('invalid_url', 'only http and https URLs are allowed'));
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // Literal IPs never reach the lookup function: check them here.
  if (isIP(host) !== 0 && !options.allowPrivate && isBlockedAddress(host)) {
    return Promise.reject(new OutboundError('blocked_address', `${host} is a blocked address`));
  }
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const started = performance.now();
  const transport = url.protocol === 'https:' ? https : http;

  return new Promise((resolve, reject) => {
    let settled = false;
    let responded = false;
    const fail = (error: OutboundError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      reject(error);
    };
    const request = transport.request(
      url,
      {
        method: options.method ?? 'POST',
        headers: { 'user-agent': 'Vouchsafe-Router/1', ...options.headers },
        lookup: guardedLookup(options),
        // A custom resolver (tests) gets a fresh connection so that it is always consulted.
        agent: options.resolve
          ? false
          : agents[options.allowPrivate ? 'open' : 'guarded'][url.protocol === 'https:' ? 'https' : 'http'],
      },
      (response) => {
        responded = true;
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) return fail(new OutboundError('too_large', `response larger than ${maxBytes} bytes`));
          chunks.push(chunk);
        });
        response.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
            durationMs: Math.round(performance.now() - started),
          });
        });
        response.on('error', (error) => fail(new OutboundError('network', error.message)));
      },
    );
    const timer = setTimeout(
      () => fail(new OutboundError('timeout', `no complete response within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    request.on('error', (error) => {
      clearTimeout(timer);
      // A kept-alive connection the target closed while idle fails at once with ECONNRESET before
      // anything was answered: the target never saw the request, so it is sent once more on a new one.
      if (
        !settled &&
        !responded &&
        !options.retried &&
        request.reusedSocket &&
        (error as NodeJS.ErrnoException).code === 'ECONNRESET'
      ) {
        settled = true;
        const left = Math.max(1, options.timeoutMs - (performance.now() - started));
        resolve(outboundRequest(rawUrl, { ...options, timeoutMs: left, retried: true }));
        return;
      }
      fail(error instanceof OutboundError ? error : new OutboundError('network', error.message));
    });
    request.end(options.body);
  });
}
