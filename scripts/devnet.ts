// npm run devnet: the bundled devnet on its own (anvil, chain id 8453, state in DATA_DIR), with the
// fixtures deployed on first start. Prints the RPC URL, the addresses and the funded test accounts;
// stops (saving its state) on Ctrl-C. Do not run it on the same DATA_DIR as a running `npm start`.
import path from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { ANVIL_KEYS } from '../server/chain/devnet/deploy';
import { devnetFiles, startDevnet } from '../server/chain/devnet/start-devnet';

const dataDir = path.resolve(process.env.DATA_DIR || './.data');
// A fixed port (anvil's usual 8545) so wallets and scripts can keep one RPC URL: `npm run devnet -- --port 9545`.
const portFlag = process.argv.indexOf('--port');
const port = portFlag > 0 ? Number(process.argv[portFlag + 1]) : 8545;
const devnet = await startDevnet(dataDir, { port });
const { deployment } = devnet;
const lines = [
  `Vouchsafe devnet (anvil, chain id ${deployment.chainId}) at ${devnet.rpcUrl}`,
  devnet.deployed ? 'Fixtures deployed now.' : 'Fixtures loaded from the saved state.',
  `State: ${devnetFiles(dataDir).stateFile}; addresses: ${devnetFiles(dataDir).addressesFile}`,
  '',
  `platform token (VOUCH)  ${deployment.platformToken}`,
  `treasury                ${deployment.treasury}`,
  `WETH                    ${deployment.weth}`,
  `Uniswap V2 factory      ${deployment.uniswapV2Factory}`,
  `Uniswap V2 router       ${deployment.uniswapV2Router}`,
  `Uniswap V3 factory      ${deployment.uniswapV3Factory}`,
  `Uniswap V3 QuoterV2     ${deployment.uniswapV3Quoter}`,
  `SwapRouter02            ${deployment.swapRouter02}`,
  `position manager        ${deployment.uniswapV3PositionManager}`,
  `Safe (1 of 1, account 0) ${deployment.safe}`,
  `liquidity locker        ${deployment.liquidityLocker}`,
  '',
  'Sample tokens:',
  ...deployment.sampleTokens.map((token) => `  ${token.symbol.padEnd(6)} ${token.address}  ${token.kind}: ${token.description}`),
  '',
  "Risk-pattern tokens (the contract analyzer's checks; not offered for trading):",
  ...deployment.riskTokens.map((token) => `  ${token.symbol.padEnd(7)} ${token.address}  ${token.kind}: ${token.description}`),
  '',
  'Funded accounts (10,000 ETH each; account 0 deployed everything and holds the platform tokens, account 1 is the treasury):',
  ...ANVIL_KEYS.map((key, i) => `  (${i}) ${privateKeyToAccount(key).address}  key ${key}`),
  '',
  `Use it from the server: CHAIN_RPC_URL=${devnet.rpcUrl} with the addresses above, or just \`npm start\`, which runs its own.`,
];
console.log(lines.join('\n'));

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  console.log('saving the devnet state and stopping...');
  void devnet.stop().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
