import { z } from 'zod';
import { createWebSignInChallenge } from '../../auth/web-sign-in';
import { walletAddress } from '../../schemas/common';
import { publicProcedure, router } from '../init';
import { takeRateLimit } from '../rate-limit';

export const authRouter = router({
  /**
   * A Sign-In with Ethereum message to sign (10 minutes, once). No REST twin (the API's challenge is for
   * bearer tokens); the same per-IP `auth` limit as the API's challenge, counted on the same subject.
   */
  challenge: publicProcedure.input(z.object({ wallet: walletAddress })).mutation(async ({ input, ctx }) => {
    await takeRateLimit('auth', { wallet: null, clientIp: ctx.clientIp });
    return createWebSignInChallenge(input.wallet);
  }),
  session: publicProcedure.query(({ ctx }) => ({ wallet: ctx.wallet, isAdmin: ctx.isAdmin })),
});
