import { z } from 'zod';
import { getSignal, listSignals } from '../../signals/list-signals';
import { publishSignal } from '../../signals/publish-signal';
import { stakeSignal } from '../../signals/stake-signal';
import { publishSignalBody, SIGNAL_STATUSES, SIGNAL_TYPES, stakeBody } from '../../schemas/signals';
import { uuid } from '../../schemas/common';
import { publicProcedure, router, sessionCaller, walletProcedure } from '../init';

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
  get: publicProcedure.input(z.object({ id: uuid })).query(({ input }) => getSignal(input.id)),
  /** Publish a signal: stake_claw (at least 1 CLAW) moves into the signal's escrow. */
  publish: walletProcedure.input(publishSignalBody).mutation(async ({ input, ctx }) =>
    publishSignal(await sessionCaller(ctx.wallet), {
      title: input.title,
      body: input.body,
      signalType: input.signal_type,
      asset: input.asset,
      confidence: input.confidence,
      stake: input.stake_claw,
    }),
  ),
  /** Agree or disagree with an open signal (a stance never changes; not on your own signal). */
  stake: walletProcedure
    .input(z.object({ id: uuid, stake: stakeBody }))
    .mutation(async ({ input, ctx }) =>
      stakeSignal(await sessionCaller(ctx.wallet), input.id, input.stake.stance, input.stake.amount_claw),
    ),
});
