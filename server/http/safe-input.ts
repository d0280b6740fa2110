import { ApiError } from '../core/errors';

// Input PostgreSQL cannot store or JavaScript handles badly is refused at the door with a 400
// naming the field, before any schema or service sees it: NUL characters (text and jsonb refuse
// them), lone UTF-16 surrogates (not valid Unicode; they cannot round-trip through UTF-8) and
// JSON nested deeper than any real request needs.

export const MAX_JSON_DEPTH = 32;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function problem(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode (no lone surrogates)';
  return null;
}

function refuse(where: string, field: string, reason: string): never {
  throw new ApiError('invalid_request', `Invalid ${where}: ${field} ${reason}`, { fields: { [field]: reason } });
}

/** Throws 400 for a NUL, a lone surrogate or nesting deeper than MAX_JSON_DEPTH anywhere in `value`. */
export function assertSafeInput(value: unknown, where: 'body' | 'query' | 'params'): void {
  // Iterative, so a hostile depth cannot exhaust the stack before the limit is noticed.
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  while (stack.length) {
    const item = stack.pop()!;
    const field = item.path || where;
    if (typeof item.value === 'string') {
      const reason = problem(item.value);
      if (reason) refuse(where, field, reason);
      continue;
    }
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth >= MAX_JSON_DEPTH) refuse(where, field, `is nested deeper than ${MAX_JSON_DEPTH} levels`);
    const entries = Array.isArray(item.value) ? item.value.map((v, i) => [String(i), v] as const) : Object.entries(item.value);
    for (const [key, child] of entries) {
      const path = item.path ? `${item.path}.${key}` : key;
      const keyReason = problem(key);
      if (keyReason) refuse(where, item.path || where, `has a key that ${keyReason}`);
      stack.push({ value: child, path, depth: item.depth + 1 });
    }
  }
}
