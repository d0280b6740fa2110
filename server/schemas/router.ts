import { z } from '@hono/zod-openapi';

/** The router's public signing keys (GET /api/v1/router/jwks). */
export const jwks = z
  .strictObject({
    keys: z.array(
      z.strictObject({
        kty: z.literal('OKP'),
        crv: z.literal('Ed25519'),
        x: z.string(),
        kid: z.string(),
        alg: z.literal('EdDSA'),
        use: z.literal('sig'),
      }),
    ),
  })
  .openapi('RouterJwks');
