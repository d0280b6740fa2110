import { z } from 'zod';
import { listSignals } from '../../signals/list-signals';
import publishEndpoint from '../../api/v1/signals.post';
import stakeEndpoint from '../../api/v1/signals.[id].stake.post';
import getSignalEndpoint from '../../api/v1/signals.[id].get';
import { publishSignalBody, SIGNAL_STATUSES, SIGNAL_TYPES, stakeBody } from '../../schemas/signals';
import { publicProcedure, router } from '../init';
import { procedureFrom, queryFrom } from '../procedure-from';

export const signalsRouter = router({
  /** The feed, as GET /api/v1/signals: type and status filters, sort newest / most_staked / confidence. */
  list: publicProcedure
    .input(
      z.object({
        signalType: z.enum(SIGNAL_TYPES).optional(),
        status: z.enum(SIGNAL_STATUSES).optional(),
        sort: z.enum(['newest', 'most_staked', 'confidence']).default('newest'),
        page: z.number().int().min(1).max(5_000).default(1),
        pageSize: z.number().int().min(1).max(50).default(20),
      }),
    )
    .query(async ({ input }) => ({
      ...(await listSignals({
        signalType: input.signalType,
        status: input.status,
        sort: input.sort,
        limit: input.pageSize,
        offset: (input.page - 1) * input.pageSize,
      })),
      page: input.page,
      pageSize: input.pageSize,
    })),
  get: queryFrom(getSignalEndpoint, (input: { id: string }) => ({ params: { id: input.id } })),
  /** POST /api/v1/signals: stake_claw (at least 1 CLAW) moves into the signal's escrow. */
  publish: procedureFrom(publishEndpoint, (body: z.input<typeof publishSignalBody>) => ({ body })),
  /** POST /api/v1/signals/{id}/stake: agree or disagree with an open signal (a stance never changes; not on your own signal). */
  stake: procedureFrom(stakeEndpoint, (input: { id: string; stake: z.input<typeof stakeBody> }) => ({
    params: { id: input.id },
    body: input.stake,
  })),
});
