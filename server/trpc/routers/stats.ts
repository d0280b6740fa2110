import { platformStats } from '../../stats/platform-stats';
import { publicProcedure, router } from '../init';

export const statsRouter = router({
  platform: publicProcedure.query(() => platformStats()),
});
