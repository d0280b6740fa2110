import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Abi, Hex } from 'viem';

// Compiled fixtures and published bytecode, committed under contracts/artifacts (npm run contracts).

export interface Artifact {
  contractName: string;
  abi: Abi;
  bytecode: Hex;
}

const cache = new Map<string, Artifact>();

export function artifact(name: string): Artifact {
  let found = cache.get(name);
  if (!found) {
    const file = path.resolve(process.cwd(), 'contracts', 'artifacts', `${name}.json`);
    found = JSON.parse(readFileSync(file, 'utf8')) as Artifact;
    cache.set(name, found);
  }
  return found;
}
