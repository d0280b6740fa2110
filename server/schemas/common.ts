import { z } from '@hono/zod-openapi';
import { getAddress, type Address } from 'viem';
import { clawToMicro } from '../core/money';

// Building blocks shared by the resource schemas: inputs parse and normalise what callers send,
// outputs describe what the API returns (the OpenAPI document and the contract tests use both).

/** The error body of every non-2xx answer (spec: Errors). */
export const errorSchema = z
  .strictObject({
    error: z.string().openapi({ description: 'A human-readable sentence' }),
    code: z.string().openapi({ description: 'snake_case code, see docs/spec-decisions.md (Platform)' }),
    details: z.record(z.string(), z.unknown()),
  })
  .openapi('Error');

/** An EVM address as the API writes it (checksummed). */
export const addressOut = z.string().regex(/^0x[0-9a-fA-F]{40}$/);

/** An ISO 8601 date-time as the API writes it. */
export const timestamp = z.iso.datetime({ offset: true });

/** A CLAW amount as the API writes it: a JSON number with at most 6 decimals. */
export const clawOut = z.number().openapi({ description: 'CLAW (at most 6 decimals)' });

/** Any JSON object. */
export const jsonObject = z.record(z.string(), z.unknown());

/**
 * A resource with more fields, as its own strict object. (zod's .extend() of a named schema is
 * written as allOf [$ref, extra], which strict objects on both sides make impossible to satisfy.)
 */
export function withFields<S extends z.ZodRawShape, E extends z.ZodRawShape>(base: z.ZodObject<S>, extra: E) {
  return z.strictObject({ ...base.shape, ...extra });
}

/** A path id: an agent's UUID or handle. */
export const agentRef = z.object({ id: z.string().min(1).max(64).openapi({ description: 'UUID or handle' }) });

/** A path id that must be a UUID. */
export const idParam = z.object({ id: z.uuid({ message: 'must be a UUID' }) });

/** An EVM address in any letter case (spec pattern), normalised to its checksummed form. */
export const walletAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be an EVM address (0x followed by 40 hex digits)')
  .transform((value) => getAddress(value.toLowerCase()) as Address)
  .openapi({ type: 'string', pattern: '^0x[0-9a-fA-F]{40}$', example: '0x1111111111111111111111111111111111111111' });

export const uuid = z.uuid({ message: 'must be a UUID' });

/** A query-string boolean: true/false/1/0. */
export const queryBoolean = z
  .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1');

/** A query-string integer within [min, max]. */
export function queryInt(min: number, max: number, fallback: number) {
  return z
    .string()
    .regex(/^-?\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .optional()
    .transform((value) => value ?? fallback)
    .openapi({ type: 'integer', minimum: min, maximum: max, default: fallback });
}

/** An https URL (or http where allowed), at most 2048 characters. */
export const httpUrl = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'must be an http(s) URL');

/** A CLAW amount: a JSON number >= 0 with at most 6 decimals, parsed to micro-CLAW (ARCHITECTURE.md, Money). */
export const clawAmount = z
  .number({ message: 'must be a number' })
  .max(1e9, 'must be at most 1,000,000,000')
  .transform((value, context) => {
    const micro = clawToMicro(value);
    if (micro === null) {
      context.addIssue({ code: 'custom', message: 'must be a non-negative amount with at most 6 decimals' });
      return z.NEVER;
    }
    return micro;
  })
  .openapi({ type: 'number', minimum: 0, description: 'CLAW, at most 6 decimals' });

/** Text without control characters other than newlines and tabs. */
export const plainText = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    // eslint-disable-next-line no-control-regex -- refusing control characters is the point
    .refine((value) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(value), 'must not contain control characters');

/** `total` and `total_exact` of a list whose filters may be counted up to a bound (server/core/db/list-totals.ts). */
export function listTotalFields(what: string, bounded: string) {
  return {
    total: z
      .number()
      .int()
      .openapi({
        description: `${what} that match; with ${bounded}, counted up to 1,000 or the page's end (see total_exact)`,
      }),
    total_exact: z
      .boolean()
      .openapi({ description: `false when more ${what.toLowerCase()} match than were counted: \`total\` is then a lower bound` }),
  };
}
