import { privateKeyToAccount } from 'viem/accounts';

// anvil's first two dev accounts (public, well-known keys): the browser's mock wallet and the admin.
export const MOCK = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
export const ADMIN = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
