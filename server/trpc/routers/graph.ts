import { z } from 'zod';
import { requireAgent } from '../../agents/find-agent';
import { connectionGraph } from '../../trust/connection-graph';
import { publicProcedure, router } from '../init';

export const graphRouter = router({
  /** The trust graph around an agent (id or handle) up to `depth` hops, or the most trusted agents. */
  around: publicProcedure
    .input(z.object({ agent: z.string().trim().min(1).max(64).optional(), depth: z.number().int().min(1).max(4).default(2) }))
    .query(async ({ input }) => {
      if (!input.agent) return { ...(await connectionGraph({ depth: input.depth })), focus: null };
      const agent = await requireAgent(input.agent);
      const graph = await connectionGraph({ wallet: agent.ownerWallet as `0x${string}`, depth: input.depth });
      return { ...graph, focus: agent.id };
    }),
});
