import { Cron } from 'croner';
import { ApiError } from '../core/errors';
import { MICRO_PER_CLAW } from '../core/money';

/** spec Limits: creating a pipeline costs 500 CLAW. */
export const PIPELINE_CREATION_FEE = 500n * MICRO_PER_CLAW;

export const invalid = (field: string, message: string) =>
  new ApiError('invalid_request', `${field} ${message}`, { fields: { [field]: message } });

/** A validated 5-field UTC cron schedule (at most once a minute). */
export function cronSchedule(expression: string): Cron {
  try {
    return new Cron(expression, { paused: true, mode: '5-part', timezone: 'UTC' });
  } catch (error) {
    throw invalid('cron_expression', `is not a valid cron expression (${(error as Error).message.slice(0, 200)})`);
  }
}

export function nextCronRun(expression: string, after: Date): Date | null {
  return cronSchedule(expression).nextRun(after);
}
