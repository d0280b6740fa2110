// npm run contracts: compiles contracts/*.sol with solc-js (offline; imports resolve from
// node_modules) and copies the Uniswap and Safe bytecode the devnet deploys from their npm
// artifacts, into contracts/artifacts/*.json ({abi, bytecode}), which are committed.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const solc = require('solc') as { compile(input: string, options: { import: (p: string) => unknown }): string };
const root = path.resolve(import.meta.dirname, '..');
const contractsDir = path.join(root, 'contracts');
const outDir = path.join(contractsDir, 'artifacts');
mkdirSync(outDir, { recursive: true });

const sources: Record<string, { content: string }> = {};
// contracts/*.sol, contracts/fixtures/*.sol (the analyzer's risk-pattern tokens) and contracts/erc8004/*.sol.
for (const dir of ['', 'fixtures', 'erc8004']) {
  for (const file of readdirSync(path.join(contractsDir, dir)).filter((f) => f.endsWith('.sol'))) {
    sources[path.posix.join(dir, file)] = { content: readFileSync(path.join(contractsDir, dir, file), 'utf8') };
  }
}
const input = {
  language: 'Solidity',
  sources,
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: 'cancun',
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
  },
};
const output = JSON.parse(
  solc.compile(JSON.stringify(input), {
    import: (importPath: string) => {
      try {
        return { contents: readFileSync(require.resolve(importPath), 'utf8') };
      } catch {
        return { error: `not found: ${importPath}` };
      }
    },
  }),
) as {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
};
const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
if (errors.length) {
  for (const error of errors) console.error(error.formattedMessage);
  process.exit(1);
}
const written: string[] = [];
for (const file of Object.keys(sources)) {
  for (const [name, contract] of Object.entries(output.contracts[file] ?? {})) {
    writeFileSync(
      path.join(outDir, `${name}.json`),
      JSON.stringify({
        contractName: name,
        source: `contracts/${file}`,
        abi: contract.abi,
        bytecode: `0x${contract.evm.bytecode.object}`,
      }) + '\n',
    );
    written.push(name);
  }
}

// Deployed as published (their init-code hashes match the routers' constants).
const NPM_ARTIFACTS: Record<string, string> = {
  WETH9: '@uniswap/v2-periphery/build/WETH9.json',
  UniswapV2Factory: '@uniswap/v2-core/build/UniswapV2Factory.json',
  UniswapV2Pair: '@uniswap/v2-core/build/UniswapV2Pair.json',
  UniswapV2Router02: '@uniswap/v2-periphery/build/UniswapV2Router02.json',
  UniswapV3Factory: '@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json',
  UniswapV3Pool: '@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json',
  NonfungiblePositionManager:
    '@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json',
  QuoterV2: '@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json',
  SwapRouter02: '@uniswap/swap-router-contracts/artifacts/contracts/SwapRouter02.sol/SwapRouter02.json',
  SafeL2: '@safe-global/safe-contracts/build/artifacts/contracts/SafeL2.sol/SafeL2.json',
  SafeProxyFactory: '@safe-global/safe-contracts/build/artifacts/contracts/proxies/SafeProxyFactory.sol/SafeProxyFactory.json',
  CompatibilityFallbackHandler:
    '@safe-global/safe-contracts/build/artifacts/contracts/handler/CompatibilityFallbackHandler.sol/CompatibilityFallbackHandler.json',
};
for (const [name, spec] of Object.entries(NPM_ARTIFACTS)) {
  const artifact = JSON.parse(readFileSync(require.resolve(spec), 'utf8')) as {
    abi: unknown[];
    bytecode: string | { object: string };
  };
  const raw = typeof artifact.bytecode === 'string' ? artifact.bytecode : artifact.bytecode.object;
  const bytecode = raw.startsWith('0x') ? raw : `0x${raw}`;
  writeFileSync(
    path.join(outDir, `${name}.json`),
    JSON.stringify({ contractName: name, source: spec, abi: artifact.abi, bytecode }) + '\n',
  );
  written.push(name);
}
console.log(`wrote ${written.length} artifacts to contracts/artifacts: ${written.join(', ')}`);
