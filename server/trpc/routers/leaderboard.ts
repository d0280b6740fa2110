import { z } from 'zod';
import { agentHandlesOfWallets } from '../../agents/find-agent';
import { getLeaderboard } from '../../leaderboard/get-leaderboard';
import { LEADERBOARD_SORTS } from '../../schemas/leaderboard';
import { publicProcedure, router } from '../init';

export const leaderboardRouter = router({
  /** GET /api/v1/agents/leaderboard (cached 60 s), each row with the id and handle of the wallet's oldest agent (the one it is named after). */
  list: publicProcedure
    .input(z.object({ sort: z.enum(LEADERBOARD_SORTS).default('score'), limit: z.number().int().min(1).max(100).default(20) }))
    .query(async ({ input }) => {
      const board = await getLeaderboard(input.sort, input.limit);
      const wallets = board.agents.map((row) => row.wallet);
      const agents = await agentHandlesOfWallets(wallets);
      const oldest = new Map<string, { id: string; handle: string }>();
      for (const agent of agents) {
        const key = agent.ownerWallet.toLowerCase();
        if (!oldest.has(key)) oldest.set(key, { id: agent.id, handle: agent.handle });
      }
      return {
        ...board,
        agents: board.agents.map((row) => {
          const agent = oldest.get(row.wallet.toLowerCase());
          return { ...row, agent_id: agent?.id ?? null, handle: agent?.handle ?? null };
        }),
      };
    }),
});
