import { ZodError } from 'zod';

// One error class and one code-to-status table for the whole API (spec: Errors).
export const ERROR_STATUS = {
  invalid_request: 400,
  invalid_json: 400,
  unauthorized: 401,
  invalid_signature: 401,
  insufficient_credits: 402,
  daily_limit_exceeded: 402,
  payment_required: 402,
  payment_invalid: 402,
  payment_failed: 402,
  per_call_limit_exceeded: 402,
  approval_required: 402,
  missing_scope: 403,
  forbidden: 403,
  tier_required: 403,
  deposit_not_yours: 403,
  payee_not_allowed: 403,
  not_found: 404,
  transaction_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  idempotency_in_progress: 409,
  handle_taken: 409,
  duplicate_endorsement: 409,
  deposit_pending: 409,
  deposit_already_claimed: 409,
  price_changed: 409,
  payment_in_progress: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  not_callable: 422,
  unprocessable: 422,
  idempotency_mismatch: 422,
  deposit_invalid: 422,
  not_a_contract: 422,
  rate_limited: 429,
  internal_error: 500,
  upstream_error: 502,
  chain_error: 502,
  service_unavailable: 503,
  chain_unavailable: 503,
  upstream_timeout: 504,
  chain_timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorBody {
  error: string;
  code: ErrorCode;
  details: Record<string, unknown>;
}

// Under `next start` the bundle holds several copies of this module (the instrumentation's and the
// routes'); an ApiError thrown by one copy must still be an ApiError to the others, so instances
// carry a brand that every copy recognises.
const BRAND = Symbol.for('vouchsafe.api-error');

export class ApiError extends Error {
  readonly [BRAND] = true;

  static override [Symbol.hasInstance](value: unknown): boolean {
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    return this === ApiError && typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }

  readonly status: number;
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = details;
    this.headers = headers;
  }

  toBody(): ErrorBody {
    return { error: this.message, code: this.code, details: this.details };
  }

  static notFound(what: string): ApiError {
    return new ApiError('not_found', `${what} not found`);
  }
}

/** 400 naming every offending field: details.fields maps a dotted path to its problem. */
export function validationError(error: ZodError, where: 'body' | 'query' | 'params' | 'headers'): ApiError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : where;
    fields[key] ??= issue.message;
  }
  const names = Object.keys(fields);
  return new ApiError('invalid_request', `Invalid ${where}: ${names.join(', ')}`, { fields });
}

// Work a refusal must leave behind even though the transaction it was thrown in rolls back (a pending
// spend approval thrown from inside a transaction). The door runs it once the handler has failed.
const AFTER_ROLLBACK = Symbol.for('vouchsafe.api-error.after-rollback');

/** Attaches `work` to `error`, to run after the enclosing transaction (if any) has rolled back. */
export function afterRollback(error: ApiError, work: () => Promise<void>): ApiError {
  Object.defineProperty(error, AFTER_ROLLBACK, { value: work, enumerable: false, configurable: true, writable: true });
  return error;
}

/** Runs the work attached with afterRollback (once); for doors and schedulers that catch ApiErrors. */
export async function runAfterRollback(error: unknown): Promise<void> {
  const work = (error as Record<symbol, unknown> | null)?.[AFTER_ROLLBACK];
  if (typeof work !== 'function') return;
  Object.defineProperty(error, AFTER_ROLLBACK, { value: undefined });
  await (work as () => Promise<void>)();
}
