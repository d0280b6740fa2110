import { isDatabaseUnavailable } from '../core/db/unavailable';
import { ApiError } from '../core/errors';
import { log } from '../core/log';

/** What a failed request answers (the spec's error shape), with its own headers. */
export interface ErrorAnswer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * The answer to a request that failed, the same through every REST door (server/api/app.ts's error
 * handler, the node door): an ApiError as itself; a lost or refused database connection 503 with
 * Retry-After (docs/reliability.md), never 500; anything else 500 naming the request id, logged.
 */
export function errorAnswer(error: unknown, requestId: string): ErrorAnswer {
  if (error instanceof ApiError) return { status: error.status, body: error.toBody(), headers: error.headers };
  if (isDatabaseUnavailable(error)) {
    log.warn({ request_id: requestId, err: (error as Error).message }, 'database unavailable');
    const unavailable = new ApiError(
      'service_unavailable',
      'The database is unavailable; retry shortly',
      {},
      { 'Retry-After': '1' },
    );
    return { status: unavailable.status, body: unavailable.toBody(), headers: unavailable.headers };
  }
  log.error({ request_id: requestId, err: error }, 'unhandled error');
  return {
    status: 500,
    body: { error: 'Internal server error', code: 'internal_error', details: { request_id: requestId } },
    headers: {},
  };
}
