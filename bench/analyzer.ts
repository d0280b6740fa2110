// The contract analyzer on the devnet (issue 13): cold analysis latency (p50/p99 over the fixtures,
// cache emptied before each), cached analysis throughput, and JSON-RPC calls per cold analysis
// (counted by a recording proxy in front of anvil). In-process: no HTTP server, no next build.
// Part of `npm run bench`; alone: `npx tsx bench/analyzer.ts`.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Address } from 'viem';
import { analyzeForCaller, forgetAnalyses } from '../server/analyzer/analyze-request';
import { useChain } from '../server/chain/client';
import { startRuntime } from '../server/core/runtime';
import { deployAnalyzerFixtures } from '../test/analyzer-fixtures';
import { rpcRecorder, startTestChain } from '../test/chain';

export interface AnalyzerBenchResults {
  fixtures: number;
  coldRuns: number;
  coldP50Ms: number;
  coldP99Ms: number;
  coldMaxMs: number;
  rpcCallsPerCold: { min: number; median: number; max: number };
  /** HTTP round trips to the node per cold analysis (JSON-RPC batches carry several calls). */
  httpRequestsPerCold: { min: number; median: number; max: number };
  rpcMethods: Record<string, number>;
  cachedPerSec: number;
  cachedSeconds: number;
  /** One caller, one cached token: the answer's latency with the result cache warm. */
  cachedP50Ms: number;
}

const ROUNDS = 5;
const CACHED_SECONDS = 3;
const CACHED_WORKERS = 10;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

export async function benchAnalyzer(): Promise<AnalyzerBenchResults> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vouchsafe-bench-analyzer-'));
  const chain = await startTestChain();
  const recorder = await rpcRecorder(chain.rpcUrl);
  const runtime = await startRuntime({ env: { DATA_DIR: dir, LOG_LEVEL: 'silent' } });
  try {
    const fx = await deployAnalyzerFixtures(chain.client, chain.rpcUrl, chain.deployment);
    const context = useChain(runtime, recorder.url, chain.deployment);
    context.addresses.liquidityLockers = [fx.uncxLocker, chain.deployment.liquidityLocker];
    const tokens: Address[] = [
      ...Object.values(fx.sample),
      fx.tax,
      fx.delayedHoneypot,
      fx.safeOwned,
      fx.uncxLocked,
      fx.v3Only,
      fx.v3Honeypot,
      // Issue 25's owner powers: checks, holders and the simulated trades run on each.
      ...Object.entries(fx.risk)
        .filter(([name]) => !['hiddenOperator', 'feeReceiver', 'whale', 'keeper'].includes(name))
        .map(([, address]) => address as Address),
    ];

    // One warm-up pass (the probe's runtime code is read once per runtime), then the measured rounds.
    for (const token of tokens) await analyzeForCaller({ contractAddress: token }, null);
    const latencies: number[] = [];
    const calls: number[] = [];
    const requests: number[] = [];
    const methods: Record<string, number> = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const token of tokens) {
        forgetAnalyses();
        const seen = recorder.methods.length;
        const sent = recorder.requests;
        const started = performance.now();
        await analyzeForCaller({ contractAddress: token }, null);
        latencies.push(performance.now() - started);
        const made = recorder.methods.slice(seen);
        calls.push(made.length);
        requests.push(recorder.requests - sent);
        if (round === 0) for (const method of made) methods[method] = (methods[method] ?? 0) + 1;
      }
    }

    // Cached: the same token again and again (each answer still reads the latest block).
    await analyzeForCaller({ contractAddress: fx.sample.clean }, null);
    const cachedLatencies: number[] = [];
    for (let i = 0; i < 200; i++) {
      const at = performance.now();
      await analyzeForCaller({ contractAddress: fx.sample.clean }, null);
      cachedLatencies.push(performance.now() - at);
    }
    cachedLatencies.sort((a, b) => a - b);
    let answered = 0;
    const deadline = performance.now() + CACHED_SECONDS * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CACHED_WORKERS }, async () => {
        while (performance.now() < deadline) {
          await analyzeForCaller({ contractAddress: fx.sample.clean }, null);
          answered++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;

    const sorted = [...latencies].sort((a, b) => a - b);
    const sortedCalls = [...calls].sort((a, b) => a - b);
    const sortedRequests = [...requests].sort((a, b) => a - b);
    for (const method of Object.keys(methods)) methods[method] = methods[method]! / tokens.length;
    return {
      fixtures: tokens.length,
      coldRuns: latencies.length,
      coldP50Ms: percentile(sorted, 50),
      coldP99Ms: percentile(sorted, 99),
      coldMaxMs: sorted.at(-1)!,
      rpcCallsPerCold: { min: sortedCalls[0]!, median: percentile(sortedCalls, 50), max: sortedCalls.at(-1)! },
      httpRequestsPerCold: {
        min: sortedRequests[0]!,
        median: percentile(sortedRequests, 50),
        max: sortedRequests.at(-1)!,
      },
      rpcMethods: methods,
      cachedPerSec: answered / seconds,
      cachedSeconds: seconds,
      cachedP50Ms: percentile(cachedLatencies, 50),
    };
  } finally {
    await runtime.close();
    await recorder.close();
    await chain.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

export function renderAnalyzerSection(results: AnalyzerBenchResults): string {
  const methods = Object.entries(results.rpcMethods)
    .sort(([, a], [, b]) => b - a)
    .map(([method, n]) => `\`${method}\` ${Number(n.toFixed(1))}`)
    .join(', ');
  return `## Contract analyzer (devnet)

\`bench/analyzer.ts\`, in process (no HTTP): \`POST /api/analyze\`'s service on a fresh anvil with the devnet and analyzer
fixtures (${results.fixtures} tokens), through a JSON-RPC recording proxy. Cold: the result cache emptied before each of
${results.coldRuns} analyses (${ROUNDS} rounds over the fixtures, after one warm-up pass). Cached: ${CACHED_WORKERS} concurrent
callers ask for the same token for ${results.cachedSeconds.toFixed(1)} s (each answer still reads the latest block).

| measure | value |
| --- | --- |
| cold analysis p50 | ${results.coldP50Ms.toFixed(1)} ms |
| cold analysis p99 | ${results.coldP99Ms.toFixed(1)} ms |
| cold analysis max | ${results.coldMaxMs.toFixed(1)} ms |
| cached analysis p50 (one caller) | ${results.cachedP50Ms.toFixed(2)} ms |
| cached analyses per second | ${Math.round(results.cachedPerSec)} |
| RPC calls per cold analysis (min / median / max) | ${results.rpcCallsPerCold.min} / ${results.rpcCallsPerCold.median} / ${results.rpcCallsPerCold.max} |
| HTTP requests to the node per cold analysis (min / median / max) | ${results.httpRequestsPerCold.min} / ${results.httpRequestsPerCold.median} / ${results.httpRequestsPerCold.max} |

RPC methods per cold analysis (mean over the fixtures): ${methods}.

Targets (issue 25): cold p50 under 200 ms (${results.coldP50Ms < 200 ? 'met' : 'NOT met'}), cold p99 under 2 s (${results.coldP99Ms < 2000 ? 'met' : 'NOT met'}), cached under 5 ms (${results.cachedP50Ms < 5 ? 'met' : 'NOT met'}). Holder reads are bounded: at most \`HOLDER_MAX_PAGES\` log pages (\`docs/analyzer.md\`).
`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const results = await benchAnalyzer();
  process.stdout.write(renderAnalyzerSection(results));
  process.exit(0);
}
