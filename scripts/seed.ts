// npm run seed -- [--preset small|medium|large] [--agents N] [--endorsements N] [--attestations N] [--jobs N]
//   [--bids N] [--signals N] [--stakes N] [--skills N] [--ledger-transactions N] [--events N] [--seed 0.42]
// Fills the empty database of DATABASE_URL (or the PGlite one in DATA_DIR); see scripts/seed-data.ts.
import { parseArgs } from 'node:util';
import { startRuntime } from '../server/core/runtime';
import { PRESETS, seedDatabase, type Counts } from './seed-data';

function parseCounts(): { counts: Counts; seed: number } {
  const { values } = parseArgs({
    options: {
      preset: { type: 'string' },
      seed: { type: 'string' },
      ...Object.fromEntries(Object.keys(PRESETS.small).map((key) => [key, { type: 'string' as const }])),
    },
  });
  const preset = values.preset ? PRESETS[values.preset as keyof typeof PRESETS] : undefined;
  if (values.preset && !preset) throw new Error(`unknown preset ${values.preset} (small, medium, large)`);
  const agents = Number((values as Record<string, unknown>).agents ?? preset?.agents ?? PRESETS.small.agents);
  // Without a preset, every other count scales with --agents as the presets do.
  const scale = agents / PRESETS.large.agents;
  const counts = Object.fromEntries(
    Object.entries(PRESETS.large).map(([key, large]) => {
      const given = (values as Record<string, unknown>)[key];
      const value = given !== undefined ? Number(given) : preset ? preset[key as keyof Counts] : Math.round(large * scale);
      if (!Number.isInteger(value) || value < 0) throw new Error(`--${key} must be a whole number`);
      return [key, value];
    }),
  ) as Counts;
  counts.agents = agents;
  if (agents < 2) throw new Error('--agents must be at least 2');
  return { counts, seed: Number(values.seed ?? 0.42) };
}

const { counts, seed } = parseCounts();
const runtime = await startRuntime({ env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' } });
try {
  await runtime.database.sql.withConnection((conn) => seedDatabase(conn, counts, { seed, log: console.log }));
} finally {
  await runtime.close();
}
