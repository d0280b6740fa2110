// Builds the Next.js app when no build exists or the sources changed since (npm run test:e2e:ui).
import { spawnSync } from 'node:child_process';
import { buildIsStale } from './build-state.mjs';

if (buildIsStale()) {
  const build = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
