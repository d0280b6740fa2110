import { z } from 'zod';
import { tierAtLeast, tierOfWallet } from '../../agents/tiers';
import { analyzeForCaller } from '../../analyzer/analyze-request';
import type { Analysis } from '../../analyzer/analyze-contract';
import { validationError } from '../../core/errors';
import { analyzeBody } from '../../schemas/analysis';
import { publicProcedure, router, sessionCaller } from '../init';
import { takeRateLimit } from '../rate-limit';

const contractRequest = analyzeBody.pick({ contract_address: true, chain_id: true });

export const analyzerRouter = router({
  /**
   * POST /api/analyze for the page: the same checks (the body schema, answered as the REST 400 with
   * details.fields), the same free limit (5 per client IP per day, shared with the REST API and taken
   * back when the analysis fails; entry tier and above unlimited), and the same service.
   */
  analyze: publicProcedure
    .input(z.object({ contract_address: z.string().max(200), chain_id: z.number().int().optional() }))
    .mutation(async ({ input, ctx }): Promise<Analysis> => {
      const parsed = contractRequest.safeParse(input);
      if (!parsed.success) throw validationError(parsed.error, 'body');
      const free = ctx.wallet === null || !tierAtLeast(await tierOfWallet(ctx.wallet), 'entry');
      const refund = free ? await takeRateLimit('analyze_free', { wallet: null, clientIp: ctx.clientIp }) : null;
      try {
        const caller = ctx.wallet ? await sessionCaller(ctx.wallet) : null;
        return (await analyzeForCaller(
          { contractAddress: parsed.data.contract_address, chainId: parsed.data.chain_id },
          caller,
        )) as Analysis;
      } catch (error) {
        await refund?.();
        throw error;
      }
    }),
});
