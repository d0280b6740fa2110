import { z } from '@hono/zod-openapi';
import { getAddress, type Address } from 'viem';
import { clawToMicro } from '../credits/money';

// Schemas shared by many endpoints.

export const errorSchema = z
  .object({
    error: z.string(),
    code: z.string(),
    details: z.record(z.string(), z.unknown()),
  })
  .openapi('Error');

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
