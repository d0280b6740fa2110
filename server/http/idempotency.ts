import { createHash } from 'node:crypto';
import { database } from '../core/db';
import { ApiError } from '../core/errors';

// Idempotency-Key (ARCHITECTURE.md, Money: "POSTs accept an Idempotency-Key header"). The first
// request with a key runs and its answer is stored; a repeat of the same request by the same
// wallet within 24 hours gets that answer again and changes nothing; the same key with another
// request is 422; a repeat while the first is still running is 409. Server errors are not
// stored, so a retry after a 5xx runs again.

export const IDEMPOTENCY_TTL_HOURS = 24;
// A first request still "running" after this long died with its process: a repeat may take over.
const ABANDONED_AFTER_SECONDS = 120;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export type IdempotencyClaim = { kind: 'new' } | { kind: 'replay'; status: number; body: unknown };

export function readIdempotencyKey(headers: Pick<Headers, 'get'>): string | null {
  const key = headers.get('idempotency-key');
  if (key === null) return null;
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError('invalid_request', 'Idempotency-Key must be 1-255 printable ASCII characters', {
      fields: { 'Idempotency-Key': 'must be 1-255 printable ASCII characters' },
    });
  }
  return key;
}

/** The request's fingerprint: method, path and body, so a key reused for anything else is caught. */
export function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${JSON.stringify(body ?? null)}`)
    .digest('hex');
}

export async function claimIdempotencyKey(wallet: string, key: string, hash: string): Promise<IdempotencyClaim> {
  const { sql } = database();
  const [claimed] = await sql.query<{ wallet: string }>(
    `INSERT INTO idempotency_keys (wallet, key, request_hash) VALUES ($1, $2, $3)
     ON CONFLICT (wallet, key) DO UPDATE SET request_hash = excluded.request_hash, status = NULL, body = NULL, created_at = now()
       WHERE idempotency_keys.created_at < now() - interval '${IDEMPOTENCY_TTL_HOURS} hours'
          OR (idempotency_keys.status IS NULL AND idempotency_keys.request_hash = excluded.request_hash
              AND idempotency_keys.created_at < now() - interval '${ABANDONED_AFTER_SECONDS} seconds')
     RETURNING wallet`,
    [wallet, key, hash],
  );
  if (claimed) return { kind: 'new' };
  const [row] = await sql.query<{ request_hash: string; status: number | null; body: unknown }>(
    'SELECT request_hash, status, body FROM idempotency_keys WHERE wallet = $1 AND key = $2',
    [wallet, key],
  );
  // Deleted between the two statements (the first request failed with a 5xx): run again.
  if (!row) return claimIdempotencyKey(wallet, key, hash);
  if (row.request_hash !== hash) {
    throw new ApiError('idempotency_mismatch', 'This Idempotency-Key was already used for a different request', {
      idempotency_key: key,
    });
  }
  if (row.status === null) {
    throw new ApiError(
      'idempotency_in_progress',
      'A request with this Idempotency-Key is still being processed; retry shortly',
      { idempotency_key: key },
      { 'Retry-After': '1' },
    );
  }
  return { kind: 'replay', status: row.status, body: row.body };
}

/** Stores the first answer (any status below 500); a server error frees the key for a retry. */
export async function settleIdempotencyKey(wallet: string, key: string, status: number, body: unknown): Promise<void> {
  const { sql } = database();
  if (status >= 500) {
    await sql.query('DELETE FROM idempotency_keys WHERE wallet = $1 AND key = $2 AND status IS NULL', [wallet, key]);
    return;
  }
  await sql.query('UPDATE idempotency_keys SET status = $3, body = $4::jsonb WHERE wallet = $1 AND key = $2', [
    wallet,
    key,
    status,
    JSON.stringify(body ?? null),
  ]);
}

/** Forgets keys older than the 24-hour window (a scheduled job). */
export async function expireIdempotencyKeys(): Promise<number> {
  const rows = await database().sql.query(
    `DELETE FROM idempotency_keys WHERE created_at < now() - interval '${IDEMPOTENCY_TTL_HOURS} hours' RETURNING key`,
  );
  return rows.length;
}
