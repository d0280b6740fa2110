// Playwright's webServer for the UI tests: a throwaway anvil (the wagmi mock connector signs through
// it with its first dev account) and the built app (server.ts) on the ports playwright.config.ts chose,
// with a fresh DATA_DIR. Stops both when Playwright stops it.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { anvilBinary } from '../../server/chain/devnet/anvil';
import { ADMIN, MOCK } from './wallets';

const appPort = process.env.UI_E2E_PORT!;
const anvilPort = process.env.UI_E2E_ANVIL_PORT!;
const anvil = spawn(anvilBinary(), ['--port', anvilPort, '--host', '127.0.0.1', '--chain-id', '8453', '--silent'], {
  stdio: 'inherit',
});
const base = `http://127.0.0.1:${appPort}`;
// Fresh, and named by the port so specs find the devnet's fixtures (uiDataDir() in helpers.ts).
const dataDir = path.join(tmpdir(), `vouchsafe-ui-e2e-${appPort}`);
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir);
// On PostgreSQL the app gets a schema of its own (left behind for inspection; names start with ui_e2e_).
const databaseUrl = process.env.DATABASE_URL ? new URL(process.env.DATABASE_URL) : null;
databaseUrl?.searchParams.set('schema', `ui_e2e_${randomBytes(6).toString('hex')}`);
const server = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_ENV: 'production',
    PORT: appPort,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl.toString() } : {}),
    DATA_DIR: dataDir,
    PUBLIC_BASE_URL: base,
    ADMIN_WALLETS: ADMIN.address,
    UI_MOCK_WALLET: MOCK.address,
    UI_MOCK_WALLET_RPC_URL: `http://127.0.0.1:${anvilPort}`,
    BOT_CHECK: 'on',
    BOT_CHECK_COST: '100',
    ALLOW_PRIVATE_URLS: 'true',
    LOG_LEVEL: 'warn',
    // Every spec runs from 127.0.0.1: more than the spec's 3 welcome grants per IP a day are needed.
    RATE_LIMIT_BOOTSTRAP: '100/24h',
  },
});
const stop = () => {
  server.kill('SIGTERM');
  anvil.kill('SIGTERM');
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', (code) => {
  anvil.kill('SIGTERM');
  process.exit(code ?? 0);
});
