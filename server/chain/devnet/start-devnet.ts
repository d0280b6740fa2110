import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createPublicClient, http, type PublicClient } from 'viem';
import { devnetChain } from '../viem-chain';
import { startAnvil, type Anvil } from './anvil';
import { deployDevUsdc, deployFixtures, type DevnetDeployment } from './deploy';

// The bundled devnet (ARCHITECTURE.md, Chain): anvil with chain id 8453, its state kept in
// DATA_DIR/devnet/anvil-state.json so balances survive restarts, and the fixtures deployed on first
// start; their addresses go to DATA_DIR/devnet.json.

export interface Devnet {
  anvil: Anvil;
  rpcUrl: string;
  deployment: DevnetDeployment;
  /** True when this start deployed the fixtures (first start, or the saved state was lost). */
  deployed: boolean;
  stop(): Promise<void>;
}

export const DEVNET_CHAIN_ID = 8453;

export function devnetFiles(dataDir: string) {
  return {
    stateFile: path.join(dataDir, 'devnet', 'anvil-state.json'),
    addressesFile: path.join(dataDir, 'devnet.json'),
  };
}

function writeJsonAtomic(file: string, value: unknown): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(value, null, 2) + '\n');
  renameSync(temporary, file);
}

/** True when every core contract of a saved deployment has code on the chain. */
async function deploymentPresent(client: PublicClient, deployment: DevnetDeployment): Promise<boolean> {
  const checks = [deployment.platformToken, deployment.weth, deployment.uniswapV2Router, deployment.safe];
  const codes = await Promise.all(checks.map((address) => client.getCode({ address })));
  return codes.every((code) => code !== undefined && code !== '0x');
}

export async function startDevnet(dataDir: string, options: { port?: number } = {}): Promise<Devnet> {
  const { stateFile, addressesFile } = devnetFiles(dataDir);
  mkdirSync(path.dirname(stateFile), { recursive: true });
  const anvil = await startAnvil({ chainId: DEVNET_CHAIN_ID, stateFile, port: options.port });
  try {
    const client = createPublicClient({ chain: devnetChain(DEVNET_CHAIN_ID, anvil.rpcUrl), transport: http(anvil.rpcUrl) });
    let deployment: DevnetDeployment | null = null;
    if (existsSync(addressesFile)) {
      const saved = JSON.parse(readFileSync(addressesFile, 'utf8')) as DevnetDeployment;
      if (await deploymentPresent(client, saved)) deployment = saved;
    }
    const deployed = deployment === null;
    if (!deployment) {
      deployment = await deployFixtures(client, anvil.rpcUrl);
      // anvil writes its state every 5 s and on exit; should that be lost, the next start sees the
      // contracts missing and deploys again.
      writeJsonAtomic(addressesFile, deployment);
    } else if (!deployment.usdc) {
      // A devnet saved before x402 (issue 26): add its USDC without moving anything else.
      deployment = { ...deployment, usdc: await deployDevUsdc(client, anvil.rpcUrl) };
      writeJsonAtomic(addressesFile, deployment);
    }
    return { anvil, rpcUrl: anvil.rpcUrl, deployment, deployed, stop: () => anvil.stop() };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}
