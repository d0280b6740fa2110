// `npm run chaos`: the full crash test (issue 23 item 1) on PGlite, then on PostgreSQL when DATABASE_URL
// is set, CHAOS_KILLS kills each (default 20), seeded by CHAOS_SEED (default random; printed); then the
// PostgreSQL connection-fault test (test/db-faults.int.test.ts). Exits 1 on any
// violation or 5xx.
import { spawnSync } from 'node:child_process';
import { runChaos } from './chaos';

const kills = Number(process.env.CHAOS_KILLS ?? 20);
const seed = process.env.CHAOS_SEED ? Number(process.env.CHAOS_SEED) : Math.floor(Math.random() * 2 ** 31);
let failed = false;
for (const databaseUrl of [undefined, process.env.DATABASE_URL].filter((url, i) => i === 0 || url)) {
  const report = await runChaos({ kills, seed, databaseUrl, stakesPerSignal: 1000, minUptimeMs: 500, maxUptimeMs: 6000 });
  for (const line of [...report.violations, ...report.serverErrors]) console.error(`  ${line}`);
  if (report.violations.length || report.serverErrors.length) failed = true;
}
if (process.env.DATABASE_URL) {
  const run = spawnSync('npx', ['vitest', 'run', '--project', 'integration', 'test/db-faults.int.test.ts'], {
    stdio: 'inherit',
  });
  if (run.status !== 0) failed = true;
}
console.log(failed ? `chaos: FAILED (replay with CHAOS_SEED=${seed})` : `chaos: passed (seed ${seed})`);
process.exit(failed ? 1 : 0);
