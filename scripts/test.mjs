// npm test: checks that migrations cover the schema, runs every Vitest project (unit, integration,
// e2e; extra arguments go to Vitest), then the browser tests of the UI (Playwright). Exits non-zero
// when any part fails, after running them all.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const run = (command, args) => spawnSync(command, args, { stdio: 'inherit' }).status ?? 1;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

if (run(npm, ['run', 'db:migrate', '--', 'check']) !== 0) process.exit(1);
const vitest = run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)]);
// The browser tests use Debian's Chromium (Playwright never downloads one here).
if (!existsSync('/usr/bin/chromium') && process.getuid?.() === 0) {
  run('apt-get', ['update', '-q']);
  run('apt-get', ['install', '-y', '-q', 'chromium']);
}
const ui = existsSync('/usr/bin/chromium') ? run(npm, ['run', 'test:e2e:ui']) : 1;
if (!existsSync('/usr/bin/chromium')) console.error('browser tests need Chromium: sudo apt-get install chromium');
process.exit(vitest || ui);
