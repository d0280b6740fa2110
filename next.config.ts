import type { NextConfig } from 'next';

const config: NextConfig = {
  // Native and WASM database drivers load at run time from node_modules, not from the bundle.
  serverExternalPackages: [
    '@electric-sql/pglite',
    'pglite-prisma-adapter',
    'pg',
    '@prisma/adapter-pg',
    'secp256k1',
    'pino',
    'ioredis',
  ],
  poweredByHeader: false,
  async rewrites() {
    return [{ source: '/docs', destination: '/api/docs' }];
  },
};

export default config;
