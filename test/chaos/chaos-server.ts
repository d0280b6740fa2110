// The process the chaos test kills: what server.ts runs in its one serving process (PGlite, or
// PostgreSQL with WEB_CONCURRENCY=1), without Next's UI handler (it keeps no state and needs a
// production build): the runtime with its migrations, the bundled devnet (anvil under its watchdog),
// the scheduled jobs and the webhook worker, and the REST API on a real HTTP server on PORT.
import { createServer } from 'node:http';
import { createApi, nodeListener } from '../../server/api/app';
import { chain } from '../../server/chain/client';
import { startRuntime } from '../../server/core/runtime';
import { ensureJobsStarted } from '../../server/scheduler/jobs';

const t0 = Date.now();
const runtime = await startRuntime();
const t1 = Date.now();
const context = await chain().catch((error: Error) => {
  console.error(`chain not available at start: ${error.message}`);
  return null;
});
const t2 = Date.now();
ensureJobsStarted(runtime);
const server = createServer(nodeListener(createApi()));
server.listen(runtime.config.PORT, '127.0.0.1', () => {
  console.log(
    `CHAOS-READY ${JSON.stringify({ rpcUrl: context?.source === 'devnet' ? context.rpcUrl : null, pid: process.pid, importMs: Math.round(t0 - performance.timeOrigin), runtimeMs: t1 - t0, chainMs: t2 - t1 })}`,
  );
});
process.on('SIGTERM', () => {
  server.close();
  void runtime.close().finally(() => process.exit(0));
});
