import { createHash } from 'node:crypto';
import { Ajv, type ValidateFunction } from 'ajv';
import { LRUCache } from 'lru-cache';
import { RE2JS } from 're2js';
import { sharedState } from '../core/shared-state';
import { ApiError } from '../core/errors';

// An agent's invoke_schema is caller-supplied code for our validator. It must never block the
// server, leak memory or collide with another agent's schema:
// - patterns run on RE2 (re2js, linear time): `^(a+)+$` cannot backtrack; a pattern's program size,
//   the length of a string it is tested on and the time one validation spends in patterns are capped;
// - size, depth, keyword and pattern caps are checked when the schema is saved (400 naming the cap),
//   and again before a stored schema is compiled;
// - every compiled schema has its own Ajv instance (no shared `$id` namespace between agents), and
//   `$ref` may only point inside the schema (`#...`): remote documents are never fetched;
// - compiled validators are cached by content hash in a bounded LRU on the runtime.

export const INVOKE_SCHEMA_LIMITS = {
  /** Serialized JSON size. */
  maxBytes: 16 * 1024,
  /** Nesting of objects and arrays. */
  maxDepth: 16,
  /** Keys in all objects of the schema, counted together. */
  maxKeywords: 1_000,
  /** Characters in one `pattern` or `patternProperties` key. */
  maxPatternLength: 256,
  /** Size of a pattern's compiled RE2 program (instructions): bounds the work per character. */
  maxPatternProgram: 400,
  /** A string longer than this never matches a `pattern` (RE2 is linear, but not free). */
  maxPatternInput: 16_384,
  /** Time one payload validation may spend in patterns before it is refused (400). */
  patternBudgetMs: 100,
  /** `uniqueItems` compares items pairwise: it needs `maxItems` at most this. */
  maxUniqueItems: 1_000,
  /** Compiled validators kept. */
  cacheEntries: 500,
  /** Serialized bytes of the schemas behind the cached validators (a compiled one takes ~20x in heap). */
  cacheBytes: 2 * 1024 * 1024,
} as const;

// The pattern time budget of the validation running now (validation is synchronous, so one at a time).
const patternBudget = sharedState('invoke.schema-pattern-budget', () => ({ deadline: Infinity }));

class PatternBudgetExceeded extends Error {}

/** Linear-time regular expressions for Ajv (`code.regExp`), within the length cap and time budget. */
function re2(pattern: string): { test: (s: string) => boolean } {
  const compiled = RE2JS.compile(pattern);
  return {
    test: (s: string) => {
      if (s.length > INVOKE_SCHEMA_LIMITS.maxPatternInput) return false;
      const budget = patternBudget();
      if (performance.now() > budget.deadline) throw new PatternBudgetExceeded();
      return compiled.test(s);
    },
  };
}
re2.code = 'require("re2js").RE2JS.compile';

const validators = sharedState(
  'invoke.schema-validators',
  () =>
    new LRUCache<string, ValidateFunction>({
      max: INVOKE_SCHEMA_LIMITS.cacheEntries,
      maxSize: INVOKE_SCHEMA_LIMITS.cacheBytes,
    }),
);

function invalid(reason: string): ApiError {
  return new ApiError('invalid_request', `invoke_schema ${reason}`, { fields: { invoke_schema: reason } });
}

/** Throws 400 naming the first cap `schema` exceeds, or a pattern RE2 cannot run, or a non-local `$ref`. */
export function checkInvokeSchemaLimits(schema: unknown): void {
  const limits = INVOKE_SCHEMA_LIMITS;
  const bytes = Buffer.byteLength(JSON.stringify(schema));
  if (bytes > limits.maxBytes) throw invalid(`is ${bytes} bytes; at most ${limits.maxBytes} are allowed`);
  let keywords = 0;
  const walk = (node: unknown, depth: number, inPatternProperties: boolean): void => {
    if (node === null || typeof node !== 'object') return;
    if (depth > limits.maxDepth) throw invalid(`is nested deeper than ${limits.maxDepth} levels`);
    if (Array.isArray(node)) {
      for (const item of node) walk(item, depth + 1, false);
      return;
    }
    const record = node as Record<string, unknown>;
    for (const [key, value] of Object.entries(record)) {
      keywords += 1;
      if (keywords > limits.maxKeywords) throw invalid(`has more than ${limits.maxKeywords} keys`);
      if (inPatternProperties) checkPattern(key);
      if (key === 'pattern' && typeof value === 'string') checkPattern(value);
      if (
        (key === '$ref' || key === '$dynamicRef' || key === '$recursiveRef') &&
        typeof value === 'string' &&
        !value.startsWith('#')
      ) {
        throw invalid(`${key} "${value.slice(0, 100)}" points outside the schema; only local references (#...) are allowed`);
      }
      if (key === 'uniqueItems' && value === true) {
        const maxItems = record.maxItems;
        if (typeof maxItems !== 'number' || maxItems > limits.maxUniqueItems) {
          throw invalid(`uniqueItems needs maxItems of at most ${limits.maxUniqueItems} beside it`);
        }
      }
      walk(value, depth + 1, key === 'patternProperties');
    }
  };
  const checkPattern = (pattern: string) => {
    if (pattern.length > limits.maxPatternLength) {
      throw invalid(`has a pattern longer than ${limits.maxPatternLength} characters`);
    }
    let size: number;
    try {
      size = RE2JS.compile(pattern).programSize();
    } catch (error) {
      throw invalid(
        `pattern "${pattern.slice(0, 100)}" is not supported (${(error as Error).message}); patterns run on RE2: no backreferences or lookaround`,
      );
    }
    if (size > limits.maxPatternProgram) {
      throw invalid(
        `pattern "${pattern.slice(0, 100)}" is too complex (${size} RE2 instructions; at most ${limits.maxPatternProgram}): use smaller repetition counts, or maxLength`,
      );
    }
  };
  walk(schema, 1, false);
}

const schemaBytes = (schema: unknown) => Math.max(1, Buffer.byteLength(JSON.stringify(schema)));

function hashOf(schema: unknown): string {
  return createHash('sha256').update(JSON.stringify(schema)).digest('base64url');
}

function compile(schema: Record<string, unknown>): ValidateFunction {
  // A fresh Ajv per schema: `$id`s and added schemas never meet another agent's.
  const ajv = new Ajv({
    strict: false,
    allErrors: true,
    code: { regExp: re2 as never },
    loadSchema: undefined,
    addUsedSchema: false,
    inlineRefs: true,
  });
  return ajv.compile(schema);
}

/** Throws 400 unless `schema` is an acceptable invoke_schema (caps, RE2 patterns, local refs, compiles). */
export function assertInvokeSchema(schema: Record<string, unknown>): void {
  checkInvokeSchemaLimits(schema);
  const key = hashOf(schema);
  if (validators().has(key)) return;
  try {
    validators().set(key, compile(schema), { size: schemaBytes(schema) });
  } catch (error) {
    throw invalid(`is not a valid JSON Schema: ${(error as Error).message.slice(0, 300)}`);
  }
}

/**
 * The validator for a stored schema, compiled once per content. A stored schema that no longer
 * passes the checks (saved before they existed) makes the agent not callable (422), never a 500.
 */
export function invokeSchemaValidator(schema: Record<string, unknown>): ValidateFunction {
  const key = hashOf(schema);
  const cached = validators().get(key);
  if (cached) return cached;
  try {
    checkInvokeSchemaLimits(schema);
    const validate = compile(schema);
    validators().set(key, validate, { size: schemaBytes(schema) });
    return validate;
  } catch (error) {
    const reason = error instanceof ApiError ? error.message : (error as Error).message.slice(0, 300);
    throw new ApiError('not_callable', 'The target agent’s invoke_schema cannot be used', { reason });
  }
}

/** Throws 400 naming the offending fields unless `payload` matches `schema`. */
export function validateInvokePayload(schema: Record<string, unknown>, payload: unknown): void {
  const validate = invokeSchemaValidator(schema);
  let ok: boolean;
  const budget = patternBudget();
  budget.deadline = performance.now() + INVOKE_SCHEMA_LIMITS.patternBudgetMs;
  try {
    ok = validate(payload) as boolean;
  } catch (error) {
    const reason =
      error instanceof PatternBudgetExceeded
        ? `checking the payload's patterns took longer than ${INVOKE_SCHEMA_LIMITS.patternBudgetMs} ms`
        : (error as Error).message.slice(0, 200);
    throw new ApiError('invalid_request', 'The payload could not be checked against the target agent’s invoke_schema', {
      fields: { '/': reason },
    });
  } finally {
    budget.deadline = Infinity;
  }
  if (!ok) {
    const fields: Record<string, string> = {};
    for (const error of validate.errors ?? []) fields[error.instancePath || '/'] ??= error.message ?? 'invalid';
    throw new ApiError('invalid_request', 'The payload does not match the target agent’s invoke_schema', { fields });
  }
}
