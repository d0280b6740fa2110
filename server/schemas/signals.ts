import { z } from '@hono/zod-openapi';
import { SIGNAL_OUTCOMES as OUTCOMES, SIGNAL_SORTS, SIGNAL_STATUSES, SIGNAL_TYPES } from './enums';
import { addressOut, clawAmount, clawOut, plainText, queryInt, timestamp } from './common';

// Staked trade predictions (spec: Signals; States and transitions, Signal resolution).

export { SIGNAL_TYPES, SIGNAL_STATUSES, OUTCOMES };

const atLeastOneClaw = (micro: bigint) => micro >= 1_000_000n;

export const publishSignalBody = z
  .object({
    title: plainText(200),
    body: plainText(10_000),
    signal_type: z.enum(SIGNAL_TYPES),
    asset: plainText(100).openapi({ description: 'A symbol (ETH) or a token address' }),
    confidence: z.number().min(0).max(100).openapi({ description: 'The publisher’s confidence in percent, 0-100' }),
    stake_claw: clawAmount.refine(atLeastOneClaw, 'must be at least 1 CLAW'),
  })
  .openapi('PublishSignalRequest');

export const signalPublished = z
  .strictObject({ signal_id: z.uuid(), publisher_wallet: addressOut, stake_claw: clawOut, created_at: timestamp })
  .openapi('SignalPublished');

export const signal = z
  .strictObject({
    signal_id: z.uuid(),
    title: z.string(),
    body: z.string(),
    signal_type: z.enum(SIGNAL_TYPES),
    asset: z.string(),
    confidence: z.number(),
    stake_claw: clawOut,
    publisher_wallet: addressOut,
    created_at: timestamp,
    status: z.enum(SIGNAL_STATUSES).openapi({
      description:
        'pending_resolution: the publisher proposed proposed_outcome, paid at dispute_deadline unless a staker disputes; disputed: an admin decides',
    }),
    outcome: z.enum(OUTCOMES).nullable(),
    resolved_at: timestamp.nullable(),
    proposed_outcome: z.enum(OUTCOMES).nullable(),
    dispute_deadline: timestamp.nullable(),
    disputed_at: timestamp.nullable(),
    agree_claw: clawOut.openapi({ description: 'Sum of the agreeing stakes (not counting the publisher’s)' }),
    disagree_claw: clawOut,
    total_staked_claw: clawOut.openapi({ description: 'Publisher stake + agree + disagree' }),
    stake_count: z.number().int(),
  })
  .openapi('Signal');

export const signalStakeView = z
  .strictObject({
    stake_id: z.uuid(),
    staker_wallet: addressOut,
    stance: z.enum(['agree', 'disagree']),
    amount_claw: clawOut,
    payout_claw: clawOut.nullable(),
  })
  .openapi('SignalStakeView');

export const signalDetail = z
  .strictObject({
    ...signal.shape,
    fee_claw: clawOut
      .nullable()
      .openapi({ description: 'Platform fee taken at resolution (3% of the losing pool, plus rounding remainders)' }),
    stakes: z.array(signalStakeView).openapi({ description: 'The 100 largest stakes' }),
  })
  .openapi('SignalDetail');

export const signalList = z.strictObject({ signals: z.array(signal), total: z.number().int() }).openapi('SignalList');

export const listSignalsQuery = z.object({
  signal_type: z.enum(SIGNAL_TYPES).optional(),
  status: z.enum(SIGNAL_STATUSES).optional(),
  sort: z.enum(SIGNAL_SORTS).optional().openapi({ description: 'Default newest' }),
  limit: queryInt(1, 50, 20),
  offset: queryInt(0, 100_000, 0),
});

export const stakeBody = z
  .object({
    stance: z.enum(['agree', 'disagree']),
    amount_claw: clawAmount.refine(atLeastOneClaw, 'must be at least 1 CLAW'),
  })
  .openapi('StakeRequest');

export const stakePlaced = z
  .strictObject({
    stake_id: z.uuid(),
    signal_id: z.uuid(),
    stance: z.enum(['agree', 'disagree']),
    amount_claw: clawOut.openapi({ description: 'This call’s amount' }),
    total_claw: clawOut.openapi({ description: 'Your whole stake on this signal after this call' }),
  })
  .openapi('StakePlaced');

export const resolveBody = z.object({ outcome: z.enum(OUTCOMES) }).openapi('ResolveSignalRequest');

export const signalPayout = z
  .strictObject({
    wallet: addressOut,
    role: z.enum(['publisher', 'agree', 'disagree']),
    staked_claw: clawOut,
    payout_claw: clawOut.openapi({ description: 'Everything paid back to this wallet (own stake included)' }),
  })
  .openapi('SignalPayout');

export const signalResolved = z
  .strictObject({
    resolved: z.boolean().openapi({
      description:
        'true: paid now (an admin’s resolution, or a finalized one). false: the publisher’s proposal, paid at dispute_deadline unless a staker disputes it',
    }),
    status: z.enum(['resolved', 'pending_resolution']),
    signal_id: z.uuid(),
    outcome: z.enum(OUTCOMES),
    fee_claw: clawOut,
    payouts: z.array(signalPayout).openapi({ description: 'Paid now when resolved; what will be paid when pending' }),
    dispute_deadline: timestamp.nullable(),
  })
  .openapi('SignalResolved');

export const signalDisputed = z
  .strictObject({
    signal_id: z.uuid(),
    status: z.literal('disputed'),
    proposed_outcome: z.enum(OUTCOMES),
    disputed_by: addressOut,
    disputed_at: timestamp,
  })
  .openapi('SignalDisputed');
