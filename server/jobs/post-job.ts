import { randomUUID } from 'node:crypto';
import { holdAccount } from '../credits/accounts';
import { callerPays } from '../credits/caller-pays';
import { database } from '../core/db';
import type { Caller } from '../core/caller';
import { ApiError } from '../core/errors';
import { microToClaw } from '../core/money';
import { eventCte, wake } from '../events/emit';
import { DEFAULT_JOB_LIFETIME_MS, MAX_JOB_LIFETIME_MS, MIN_JOB_LIFETIME_MS } from './rules';

export interface PostJobInput {
  title: string;
  description: string;
  requiredSkill?: string;
  bounty: bigint;
  expiresAt?: string;
}

/**
 * POST /api/v1/jobs: the bounty moves from the poster's balance into the job's escrow, and the job
 * and its job.posted event are written by the same statement (402 and no job when it cannot pay or
 * the daily limit would be passed).
 */
export async function postJob(caller: Caller, input: PostJobInput) {
  const now = Date.now();
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : new Date(now + DEFAULT_JOB_LIFETIME_MS);
  if (expiresAt.getTime() < now + MIN_JOB_LIFETIME_MS || expiresAt.getTime() > now + MAX_JOB_LIFETIME_MS) {
    throw new ApiError('invalid_request', 'expires_at must be between one minute and 90 days from now', {
      fields: { expires_at: 'must be between one minute and 90 days from now' },
    });
  }
  const id = randomUUID();
  const event = {
    job_id: id,
    title: input.title,
    required_skill: input.requiredSkill ?? null,
    bounty_claw: microToClaw(input.bounty),
    expires_at: expiresAt.toISOString(),
    requested_by_wallet: caller.wallet,
  };
  await callerPays(
    {
      caller,
      amount: input.bounty,
      to: holdAccount('job', id),
      reason: 'job_escrow',
      ref: { type: 'job', id },
      alongside: (p) => [
        `job AS (
          INSERT INTO jobs (id, poster_wallet, poster_agent_id, title, description, required_skill, bounty, expires_at)
          SELECT ${p.add(id)}::uuid, ${p.add(caller.wallet)}, ${p.add(caller.agentId)}::uuid, ${p.add(input.title)},
            ${p.add(input.description)}, ${p.add(input.requiredSkill ?? null)}, ${p.add(input.bounty.toString())}::bigint,
            ${p.add(expiresAt)}::timestamptz
          FROM txn RETURNING id)`,
        eventCte(p, 'job_event', 'job.posted', event, 'job'),
      ],
    },
    database().sql,
  );
  wake('job.posted');
  return {
    job_id: id,
    status: 'open' as const,
    bounty_claw: microToClaw(input.bounty),
    requested_by_wallet: caller.wallet,
    expires_at: expiresAt.toISOString(),
  };
}
