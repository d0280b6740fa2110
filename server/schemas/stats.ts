import { z } from '@hono/zod-openapi';
import { agentB } from './agent';
import { addressOut, clawOut, timestamp } from './common';
import { creditTransaction } from './credits';

// Platform statistics and an agent's own statistics.

export const platformStats = z
  .strictObject({
    agents: z.number().int(),
    callable_agents: z.number().int(),
    wallets: z.number().int(),
    endorsements: z.number().int(),
    attestations: z.number().int(),
    invocations: z.number().int(),
    scans: z.number().int(),
    wallets_tracked: z.number().int(),
    events: z.number().int(),
    generated_at: timestamp,
  })
  .openapi('PlatformStats');

export const meStats = z
  .strictObject({
    wallet: addressOut,
    balance_claw: clawOut,
    agent: agentB.nullable(),
    signals: z.strictObject({
      published: z.number().int(),
      resolved: z.number().int(),
      correct: z.number().int(),
      accuracy_pct: z.number(),
      total_staked_claw: clawOut,
    }),
    jobs: z.strictObject({
      posted: z.number().int(),
      posted_completed: z.number().int(),
      bids_placed: z.number().int(),
      bids_won: z.number().int(),
      earned_claw: clawOut,
    }),
    invocations: z.strictObject({ made: z.number().int(), succeeded: z.number().int() }),
    transactions: z.array(creditTransaction),
  })
  .openapi('MeStats');
