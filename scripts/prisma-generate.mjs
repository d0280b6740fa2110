// Generates the Prisma client offline. `prisma generate` never runs the native schema engine,
// but it refuses to start without one, so point it at a no-op executable.
import { spawnSync } from 'node:child_process';

const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? '/bin/true',
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
  CHECKPOINT_DISABLE: '1',
};
const result = spawnSync('npx', ['--no-install', 'prisma', 'generate', '--schema', 'prisma/schema.prisma'], {
  stdio: 'inherit',
  env,
});
process.exit(result.status ?? 1);
