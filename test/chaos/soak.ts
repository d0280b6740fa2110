// `npm run soak` (issue 23 item 5; not in CI): the chaos workload for SOAK_MINUTES (default 30) with no
// kills against one server process on PGlite, or PostgreSQL when DATABASE_URL is set, sampling the
// server's RSS and health p99 each minute; then the item 1 invariants. Passes when RSS and p99 grew
// less than 10% from minute 5 to the last minute and nothing was violated. Record results in
// docs/reliability.md. SOAK_CONCURRENCY sets the loops (default 2: about half of what one process
// sustains here).
import { runChaos } from './chaos';

const minutes = Number(process.env.SOAK_MINUTES ?? 30);
const seed = process.env.CHAOS_SEED ? Number(process.env.CHAOS_SEED) : Math.floor(Math.random() * 2 ** 31);
const report = await runChaos({
  kills: 0,
  seed,
  soakMs: minutes * 60_000,
  databaseUrl: process.env.DATABASE_URL,
  concurrency: Number(process.env.SOAK_CONCURRENCY ?? 2),
  stakesPerSignal: 1000,
});
const at = (minute: number) => report.minutes.find((sample) => sample.minute === minute) ?? report.minutes[0]!;
const first = at(Math.min(5, report.minutes.length));
const last = report.minutes[report.minutes.length - 1]!;
const growth = (a: number, b: number) => (a > 0 ? (b - a) / a : 0);
const rssGrowth = growth(first.rssMb, last.rssMb);
const p99Growth = growth(Math.max(first.healthP99Ms, 5), Math.max(last.healthP99Ms, 5));
console.log(
  JSON.stringify(
    {
      seed,
      minutes: report.minutes,
      rssGrowth,
      p99Growth,
      violations: report.violations,
      serverErrors: report.serverErrors.length,
    },
    null,
    2,
  ),
);
const ok = rssGrowth < 0.1 && p99Growth < 0.1 && !report.violations.length && !report.serverErrors.length;
console.log(ok ? 'soak: passed' : 'soak: FAILED');
process.exit(ok ? 0 : 1);
