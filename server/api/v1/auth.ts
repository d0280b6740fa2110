// POST /api/v1/auth/challenge, POST /api/v1/auth/verify, POST /api/v1/auth/revoke - wallet sign-in
import { z } from '@hono/zod-openapi';
import { revokeToken } from '../../auth/api-keys';
import { createChallenge } from '../../auth/create-challenge';
import { isKnownScope } from '../../auth/scopes';
import { verifyChallenge } from '../../auth/verify-challenge';
import { endpoint } from '../../http/endpoint';
import { clawAmount, uuid, walletAddress } from '../schemas';

export const authChallenge = endpoint({
  method: 'post',
  path: '/api/v1/auth/challenge',
  summary: 'Get a Sign-In with Ethereum challenge to sign',
  description: 'Sign `challenge` with personal_sign (EIP-191) within 10 minutes and send it to /api/v1/auth/verify.',
  tags: ['Auth'],
  auth: 'none',
  rateLimit: 'auth',
  body: z.object({
    owner_wallet: walletAddress,
    agent_pubkey: z.string().trim().min(1).max(256),
    agent_name: z.string().trim().min(1).max(100).optional(),
    requested_scopes: z.array(z.string().refine(isKnownScope, 'unknown scope')).max(50).optional(),
    max_spend_claw_per_day: clawAmount.optional(),
  }),
  response: z.object({ challenge: z.string(), challenge_id: z.string(), expires_at: z.string() }),
  errors: { 400: 'Invalid fields', 429: 'Too many challenges from this IP' },
  handler: ({ body }) =>
    createChallenge({
      ownerWallet: body.owner_wallet,
      agentPubkey: body.agent_pubkey,
      agentName: body.agent_name,
      requestedScopes: body.requested_scopes,
      maxSpendPerDay: body.max_spend_claw_per_day,
    }),
});

export const authVerify = endpoint({
  method: 'post',
  path: '/api/v1/auth/verify',
  summary: 'Exchange a signed challenge for a 24-hour bearer token',
  tags: ['Auth'],
  auth: 'none',
  rateLimit: 'auth',
  body: z.object({ challenge_id: uuid, signature: z.string().min(1).max(10_000) }),
  errors: { 401: 'Bad signature, or the challenge is unknown, expired or used' },
  handler: ({ body }) => verifyChallenge(body.challenge_id, body.signature),
});

export const authRevoke = endpoint({
  method: 'post',
  path: '/api/v1/auth/revoke',
  summary: 'Revoke the bearer token that makes this call (sign out)',
  tags: ['Auth'],
  auth: ['bearer'],
  handler: ({ caller }) => revokeToken(caller),
});

export const authSession = endpoint({
  method: 'get',
  path: '/api/v1/auth/session',
  summary: 'Who the presented credential is: wallet, agent, scopes',
  tags: ['Auth'],
  auth: ['bearer', 'api_key', 'signature'],
  handler: async ({ caller }) => ({
    wallet_address: caller.wallet,
    agent_id: caller.agentId,
    agent_pubkey: caller.agentPubkey,
    scopes: caller.scopes,
    via: caller.via,
  }),
});
