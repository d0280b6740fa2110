import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { ApiError } from '../core/errors';
import { currentRuntime } from '../core/runtime';
import { log } from '../core/log';
import type { TrpcContext } from './init';
import { appRouter } from './router';

/**
 * Mutations come from the UI's own pages only (the session cookie would otherwise let another site
 * act for the signed-in wallet): a POST needs a JSON content type (no form or multipart bodies, which
 * a cross-site form can send without a preflight), and a browser's `Sec-Fetch-Site: same-origin` or an
 * `Origin` equal to this site's (PUBLIC_BASE_URL or the request's own origin); a POST with neither is refused.
 */
export function refuseCrossSite(request: Request): ApiError | null {
  if (request.method === 'GET' || request.method === 'HEAD') return null;
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    return new ApiError('unsupported_media_type', 'Procedures accept application/json bodies only');
  }
  const fetchSite = request.headers.get('sec-fetch-site');
  const origin = request.headers.get('origin');
  if (fetchSite !== null && fetchSite !== 'same-origin') {
    return new ApiError('forbidden', 'Cross-site requests are refused', { sec_fetch_site: fetchSite });
  }
  if (origin !== null) {
    const allowed = new Set([new URL(currentRuntime().config.PUBLIC_BASE_URL).origin, new URL(request.url).origin]);
    if (!allowed.has(origin)) return new ApiError('forbidden', 'Cross-site requests are refused', { origin });
  } else if (fetchSite === null) {
    return new ApiError('forbidden', 'A POST needs an Origin or Sec-Fetch-Site header from a browser on this site');
  }
  return null;
}

/** Serves one /api/trpc request (one procedure or a batch) for a session already read. */
export async function serveTrpc(request: Request, session: Omit<TrpcContext, 'request'>): Promise<Response> {
  const refusal = refuseCrossSite(request);
  if (refusal) return Response.json(refusal.toBody(), { status: refusal.status });
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req: request,
    router: appRouter,
    createContext: () => ({ ...session, request }),
    onError({ error, path }) {
      if (error.code === 'INTERNAL_SERVER_ERROR') log.error({ err: error.cause ?? error, path }, 'trpc procedure failed');
    },
  });
}
