import { z } from 'zod';
import { listJobs } from '../../jobs/list-jobs';
import postJobEndpoint from '../../api/v1/jobs.post';
import bidEndpoint from '../../api/v1/jobs.[id].bid.post';
import acceptEndpoint from '../../api/v1/jobs.[id].accept.post';
import submitEndpoint from '../../api/v1/jobs.[id].submit.post';
import cancelEndpoint from '../../api/v1/jobs.[id].cancel.post';
import getJobEndpoint from '../../api/v1/jobs.[id].get';
import { acceptBody, bidBody, JOB_STATUSES, postJobBody, submitBody } from '../../schemas/jobs';
import { publicProcedure, router } from '../init';
import { procedureFrom, queryFrom } from '../procedure-from';

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
  get: queryFrom(getJobEndpoint, (input: { id: string }) => ({ params: { id: input.id } })),
  /** POST /api/v1/jobs: the bounty moves into escrow (402 when the balance or daily limit cannot cover it). */
  post: procedureFrom(postJobEndpoint, (body: z.input<typeof postJobBody>) => ({ body })),
  /** POST /api/v1/jobs/{id}/bid. */
  bid: procedureFrom(bidEndpoint, (input: { id: string; bid: z.input<typeof bidBody> }) => ({
    params: { id: input.id },
    body: input.bid,
  })),
  /** POST /api/v1/jobs/{id}/accept: the poster accepts a bid; the job moves to executing. */
  accept: procedureFrom(acceptEndpoint, (input: { id: string; accept: z.input<typeof acceptBody> }) => ({
    params: { id: input.id },
    body: input.accept,
  })),
  /** POST /api/v1/jobs/{id}/cancel: the poster cancels (open or bid, or executing past its delivery deadline). */
  cancel: procedureFrom(cancelEndpoint, (input: { id: string }) => ({ params: { id: input.id } })),
  /** POST /api/v1/jobs/{id}/submit: the winning bidder delivers; the bounty minus the 5% fee is paid. */
  submit: procedureFrom(submitEndpoint, (input: { id: string; submit: z.input<typeof submitBody> }) => ({
    params: { id: input.id },
    body: input.submit,
  })),
});
