// Playwright's webServer for the UI tests: the bundled devnet (anvil with the fixtures, started here on
// the port playwright.config.ts chose, and handed to the app as its devnet) and the built app (server.ts),
// with a fresh DATA_DIR. The wagmi mock connector talks to that same anvil with its first dev account
// (unlocked there): its personal_sign and eth_sendTransaction are anvil's, so a transaction the page has
// the wallet send lands on the chain the app reads. Stops both when Playwright stops it.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startDevnet } from '../../server/chain/devnet/start-devnet';
import { ADMIN, MOCK } from './wallets';

const appPort = process.env.UI_E2E_PORT!;
const anvilPort = process.env.UI_E2E_ANVIL_PORT!;
const base = `http://127.0.0.1:${appPort}`;
// Fresh, and named by the port so specs find the devnet's fixtures (uiDataDir() in helpers.ts).
const dataDir = path.join(tmpdir(), `vouchsafe-ui-e2e-${appPort}`);
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir);
const devnet = await startDevnet(dataDir, { port: Number(anvilPort) });
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
    // The devnet above (what server.ts gives its workers): the app reads devnet.json from DATA_DIR.
    SHARED_DEVNET_RPC_URL: devnet.rpcUrl,
    PUBLIC_BASE_URL: base,
    ADMIN_WALLETS: ADMIN.address,
    UI_MOCK_WALLET: MOCK.address,
    UI_MOCK_WALLET_RPC_URL: devnet.rpcUrl,
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
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', (code) => {
  void devnet.stop().finally(() => process.exit(code ?? 0));
});
