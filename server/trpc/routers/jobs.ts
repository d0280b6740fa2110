import { z } from 'zod';
import { listJobs } from '../../jobs/list-jobs';
import { getJob } from '../../jobs/get-job';
import { postJob } from '../../jobs/post-job';
import { bidOnJob } from '../../jobs/bid-on-job';
import { acceptBid } from '../../jobs/accept-bid';
import { submitJob } from '../../jobs/submit-job';
import { cancelJob } from '../../jobs/cancel-job';
import { acceptBody, bidBody, JOB_STATUSES, postJobBody, submitBody } from '../../schemas/jobs';
import { uuid } from '../../schemas/common';
import { publicProcedure, router, sessionCaller, walletProcedure } from '../init';

export const jobsRouter = router({
  /** The board: newest first, filtered as GET /api/v1/jobs (status, skill, words), pages of `pageSize`. */
  list: publicProcedure
    .input(
      z.object({
        status: z.enum([...JOB_STATUSES, 'all']).default('all'),
        skill: z.string().trim().max(100).optional(),
        q: z.string().max(200).optional(),
        page: z.number().int().min(1).max(5_000).default(1),
        pageSize: z.number().int().min(1).max(50).default(20),
      }),
    )
    .query(({ input }) =>
      listJobs({
        status: input.status,
        skill: input.skill || undefined,
        q: input.q || undefined,
        limit: input.pageSize,
        offset: (input.page - 1) * input.pageSize,
      }),
    ),
  /** One job with its bids; the result only for the poster and the winning bidder (as GET /api/v1/jobs/{id}). */
  get: publicProcedure
    .input(z.object({ id: uuid }))
    .query(async ({ input, ctx }) => getJob(input.id, ctx.wallet ? await sessionCaller(ctx.wallet) : null)),
  /** Post a job: the bounty moves into escrow (402 when the balance or daily limit cannot cover it). */
  post: walletProcedure.input(postJobBody).mutation(async ({ input, ctx }) =>
    postJob(await sessionCaller(ctx.wallet), {
      title: input.title,
      description: input.description,
      requiredSkill: input.required_skill,
      bounty: input.bounty_claw,
      expiresAt: input.expires_at,
    }),
  ),
  bid: walletProcedure.input(z.object({ id: uuid, bid: bidBody })).mutation(async ({ input, ctx }) =>
    bidOnJob(await sessionCaller(ctx.wallet), input.id, {
      bid: input.bid.bid_claw,
      etaSeconds: input.bid.eta_seconds,
      proposal: input.bid.proposal,
    }),
  ),
  /** The poster accepts a bid; the job moves to executing. */
  accept: walletProcedure
    .input(z.object({ id: uuid, accept: acceptBody }))
    .mutation(async ({ input, ctx }) => acceptBid(await sessionCaller(ctx.wallet), input.id, input.accept.bid_id)),
  /** The poster cancels (open or bid, or executing past its delivery deadline); the bounty comes back. */
  cancel: walletProcedure
    .input(z.object({ id: uuid }))
    .mutation(async ({ input, ctx }) => cancelJob(await sessionCaller(ctx.wallet), input.id)),
  /** The winning bidder delivers; the bounty minus the 5% fee is paid. */
  submit: walletProcedure
    .input(z.object({ id: uuid, submit: submitBody }))
    .mutation(async ({ input, ctx }) => submitJob(await sessionCaller(ctx.wallet), input.id, input.submit.result)),
});
