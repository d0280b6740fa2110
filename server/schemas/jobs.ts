import { z } from '@hono/zod-openapi';
import { JOB_STATUSES } from './enums';
import { addressOut, clawAmount, clawOut, listTotalFields, plainText as text, queryInt, timestamp, uuid } from './common';

// Job bounties and their bids (spec: Jobs; States and transitions).

export { JOB_STATUSES };

export const postJobBody = z
  .object({
    title: text(200),
    description: text(5000),
    required_skill: text(100).optional(),
    bounty_claw: clawAmount.refine((micro) => micro > 0n, 'must be more than 0'),
    expires_at: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }).optional().openapi({
      description: 'When an unaccepted job expires and its bounty returns to the poster; default 7 days, at most 90 days ahead',
    }),
  })
  .openapi('PostJobRequest');

export const jobPosted = z
  .strictObject({
    job_id: z.uuid(),
    status: z.literal('open'),
    bounty_claw: clawOut,
    requested_by_wallet: addressOut,
    expires_at: timestamp,
  })
  .openapi('JobPosted');

export const bid = z
  .strictObject({
    bid_id: z.uuid(),
    job_id: z.uuid(),
    bidder_wallet: addressOut,
    bidder_agent_id: z.uuid().nullable(),
    bid_claw: clawOut,
    eta_seconds: z.number().int(),
    proposal: z.string(),
    status: z.enum(['pending', 'accepted', 'rejected']),
    created_at: timestamp,
  })
  .openapi('Bid');

export const job = z
  .strictObject({
    job_id: z.uuid(),
    title: z.string(),
    description: z.string(),
    required_skill: z.string().nullable(),
    bounty_claw: clawOut,
    expires_at: timestamp,
    status: z.enum(JOB_STATUSES),
    requested_by_wallet: addressOut,
    bid_count: z.number().int(),
    accepted_bid_id: z.uuid().nullable(),
    created_at: timestamp,
    completed_at: timestamp.nullable(),
    delivery_deadline: timestamp.nullable().openapi({
      description:
        'Executing jobs: accepted_at + the accepted bid’s eta_seconds + JOB_DELIVERY_GRACE_HOURS; after it the poster may cancel (POST /api/v1/jobs/{id}/cancel)',
    }),
    cancelled_at: timestamp.nullable(),
  })
  .openapi('Job');

export const jobDetail = z
  .strictObject({
    ...job.shape,
    bids: z.array(bid),
    fee_claw: clawOut.nullable().openapi({ description: 'The platform fee taken at completion' }),
    result: z
      .unknown()
      .openapi({ description: 'The submitted result; only the poster and the winning bidder see it (null for others)' }),
  })
  .openapi('JobDetail');

export const jobList = z
  .strictObject({
    jobs: z.array(job),
    ...listTotalFields('Jobs', 'a skill, words or a minimum bounty'),
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .openapi('JobList');

export const listJobsQuery = z.object({
  status: z
    .enum([...JOB_STATUSES, 'all'])
    .optional()
    .openapi({ description: 'Default all' }),
  skill: z.string().max(100).optional().openapi({ description: 'required_skill, exact match ignoring case' }),
  q: z.string().max(200).optional().openapi({ description: 'Words in the title or description' }),
  limit: queryInt(1, 50, 20),
  offset: queryInt(0, 100_000, 0),
});

export const bidBody = z
  .object({
    bid_claw: clawAmount.refine((micro) => micro > 0n, 'must be more than 0'),
    eta_seconds: z
      .number()
      .int()
      .min(1)
      .max(365 * 24 * 3600),
    proposal: text(5000),
  })
  .openapi('BidRequest');

export const acceptBody = z.object({ bid_id: uuid }).openapi('AcceptBidRequest');

export const jobAccepted = z
  .strictObject({ job_id: z.uuid(), status: z.literal('executing'), accepted_bid_id: z.uuid(), bidder_wallet: addressOut })
  .openapi('JobAccepted');

export const submitBody = z
  .object({
    result: z
      .unknown()
      .refine((value) => value !== undefined && value !== null, 'is required')
      .openapi({ description: 'The deliverable: any JSON value (object, array, string, number)' }),
  })
  .openapi('SubmitJobRequest');

export const jobCancelled = z
  .strictObject({
    job_id: z.uuid(),
    status: z.literal('cancelled'),
    refunded_claw: clawOut.openapi({ description: 'The bounty, back from escrow to the poster' }),
    cancelled_at: timestamp,
  })
  .openapi('JobCancelled');

export const jobCompleted = z
  .strictObject({
    job_id: z.uuid(),
    status: z.literal('completed'),
    paid_claw: clawOut,
    fee_claw: clawOut,
    bidder_wallet: addressOut,
  })
  .openapi('JobCompleted');
