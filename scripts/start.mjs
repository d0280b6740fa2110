// npm start: builds the Next.js app when no build exists or the sources changed since, then
// serves server.ts on PORT.
import { spawn, spawnSync } from 'node:child_process';
import { buildIsStale } from './build-state.mjs';
import { SERVER_ENV_DEFAULTS, SERVER_NODE_ARGS } from './server-env.mjs';

if (buildIsStale()) {
  console.log('Building the app (about a minute; only when the sources changed)...');
  const build = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const server = spawn(process.execPath, [...SERVER_NODE_ARGS, 'server.ts'], {
  stdio: 'inherit',
  env: { ...SERVER_ENV_DEFAULTS, ...process.env },
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
