import { log } from '../core/log';

// The JSON log line of every REST request (method, path, status, time), written by whichever door
// answered it. It costs a clock read and an object per request, so the doors ask first.

/** pino's level number for info. */
const INFO = 30;

/** True when LOG_LEVEL writes the request lines. */
export const requestLogOn = (): boolean => log.levelVal <= INFO;

export function logRequest(requestId: string, method: string, path: string, status: number, started: number): void {
  log.info(
    {
      request_id: requestId,
      method,
      path,
      status,
      duration_ms: Math.round((performance.now() - started) * 100) / 100,
    },
    'request',
  );
}
