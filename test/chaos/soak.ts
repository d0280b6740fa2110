// `npm run soak` (issue 23 item 5; not in CI): the chaos workload for SOAK_MINUTES (default 30) with no
// kills against one server process on PGlite, or PostgreSQL when DATABASE_URL is set, sampling the
// server's RSS and health latency each minute; then the item 1 invariants. Passes when the median RSS and
// the health p99 of minutes 5-9 and of the last five minutes differ by less than 10% growth and nothing
// was violated. Record results in
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
const growth = (a: number, b: number) => (a > 0 ? (b - a) / a : 0);
// One minute's p99 is its 3rd-slowest of ~300 probes, so a single stall moves it: p99 is compared over
// five-minute windows (~1,500 probes each), the one starting at minute 5 and the last five minutes.
const windowP99 = (from: number, to: number) => {
  const all = report.healthLatencies
    .slice(from - 1, to)
    .flat()
    .sort((a, b) => a - b);
  return Math.round(all[Math.ceil(all.length * 0.99) - 1] ?? 0);
};
const count = report.minutes.length;
const startWindow = [Math.min(5, count), Math.min(9, count)] as const;
const endWindow = [Math.max(1, count - 4), count] as const;
const p99Start = windowP99(...startWindow);
const p99End = windowP99(...endWindow);
const p99Growth = growth(Math.max(p99Start, 5), Math.max(p99End, 5));
// RSS moves ±10% between one minute's sample and the next with the garbage collector's cycles: the
// median sample of each window is compared.
const windowRss = (from: number, to: number) => {
  const samples = report.minutes
    .slice(from - 1, to)
    .map((sample) => sample.rssMb)
    .sort((a, b) => a - b);
  return samples[Math.floor((samples.length - 1) / 2)] ?? 0;
};
const rssStart = windowRss(...startWindow);
const rssEnd = windowRss(...endWindow);
const rssGrowth = growth(rssStart, rssEnd);
console.log(
  JSON.stringify(
    {
      seed,
      minutes: report.minutes,
      healthP99: { [`minutes ${startWindow.join('-')}`]: p99Start, [`minutes ${endWindow.join('-')}`]: p99End },
      medianRssMb: { [`minutes ${startWindow.join('-')}`]: rssStart, [`minutes ${endWindow.join('-')}`]: rssEnd },
      rssGrowth,
      p99Growth,
      violations: report.violations,
      serverErrors: report.serverErrors.length,
      acknowledged: report.byKind,
      refused: report.refused,
    },
    null,
    2,
  ),
);
const ok = rssGrowth < 0.1 && p99Growth < 0.1 && !report.violations.length && !report.serverErrors.length;
console.log(ok ? 'soak: passed' : 'soak: FAILED');
process.exit(ok ? 0 : 1);
