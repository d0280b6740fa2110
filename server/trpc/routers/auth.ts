import { z } from 'zod';
import { createWebSignInChallenge } from '../../auth/web-sign-in';
import { currentRuntime } from '../../core/runtime';
import { walletAddress } from '../../schemas/common';
import { publicProcedure, router } from '../init';

export const authRouter = router({
  /** A Sign-In with Ethereum message to sign (10 minutes, once); the same per-IP limit as the API's challenge. */
  challenge: publicProcedure.input(z.object({ wallet: walletAddress })).mutation(async ({ input, ctx }) => {
    await currentRuntime().limiter.enforce('auth', ctx.clientIp);
    return createWebSignInChallenge(input.wallet);
  }),
  session: publicProcedure.query(({ ctx }) => ({ wallet: ctx.wallet, isAdmin: ctx.isAdmin })),
});
