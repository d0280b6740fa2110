// Browser tests of the human UI (docs/ui.md): Debian's Chromium (apt-get install chromium), never
// `playwright install`. `npm run test:e2e:ui` builds the app when needed, then runs these.
import { execFileSync } from 'node:child_process';
import { defineConfig } from '@playwright/test';

function freePort(): string {
  return execFileSync(process.execPath, [
    '-e',
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
  ])
    .toString()
    .trim();
}

// Chosen once: Playwright loads this file again in its worker, which must see the same ports.
process.env.UI_E2E_PORT ??= freePort();
process.env.UI_E2E_ANVIL_PORT ??= freePort();
const baseURL = `http://127.0.0.1:${process.env.UI_E2E_PORT}`;

export default defineConfig({
  testDir: 'e2e/ui',
  testMatch: '*.spec.ts',
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    baseURL,
    viewport: { width: 1440, height: 900 },
    trace: 'off',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
        '--disable-default-apps',
        '--disable-extensions',
      ],
    },
  },
  webServer: {
    command: 'node --import tsx e2e/ui/serve.ts',
    url: `${baseURL}/api/v1/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
