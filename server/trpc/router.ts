import { router } from './init';
import { adminRouter } from './routers/admin';
import { agentsRouter } from './routers/agents';
import { analyzerRouter } from './routers/analyzer';
import { authRouter } from './routers/auth';
import { graphRouter } from './routers/graph';
import { jobsRouter } from './routers/jobs';
import { leaderboardRouter } from './routers/leaderboard';
import { meRouter } from './routers/me';
import { signalsRouter } from './routers/signals';
import { skillsRouter } from './routers/skills';
import { statsRouter } from './routers/stats';

/** The UI's procedures (/api/trpc), over the same services as the REST API (docs/ui.md). */
export const appRouter = router({
  auth: authRouter,
  stats: statsRouter,
  agents: agentsRouter,
  graph: graphRouter,
  me: meRouter,
  admin: adminRouter,
  jobs: jobsRouter,
  signals: signalsRouter,
  leaderboard: leaderboardRouter,
  skills: skillsRouter,
  analyzer: analyzerRouter,
});

export type AppRouter = typeof appRouter;
