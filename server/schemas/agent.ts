import { z } from '@hono/zod-openapi';
import { isKnownScope } from '../core/scopes';
import {
  addressOut,
  clawAmount,
  clawOut,
  httpUrl,
  jsonObject,
  queryBoolean,
  queryInt,
  timestamp,
  walletAddress,
  withFields,
  listTotalFields,
} from './common';
import { TIERS } from './enums';
import { activityEntry, trustBreakdown } from './trust';
import { erc8004Ref } from './erc8004';

// The agent resource in its two published shapes (family A and family B), and the requests that
// create and change it.

export const HANDLE_PATTERN = /^[a-z0-9-]{3,30}$/;
export { TIERS };

const scopeList = z.array(z.string().refine(isKnownScope, 'unknown scope')).max(50);
const agentName = z.string().trim().min(2).max(50);
const socialHandle = z.string().trim().max(64).nullable().optional();

/** Family A Agent. */
export const agentA = z
  .strictObject({
    id: z.uuid(),
    wallet_address: addressOut,
    handle: z.string(),
    name: z.string(),
    bio: z.string(),
    avatar_url: z.string().nullable(),
    tier: z.enum(TIERS),
    trust_score: z.number().int().min(0).max(280).openapi({ description: 'The spec score, 0-280 (see the trust score note)' }),
    propagated_trust_score: z
      .number()
      .min(0)
      .max(100)
      .openapi({ description: 'Sybil-resistant score (personalised PageRank from verified and established agents), 0-100' }),
    connections_count: z.number().int(),
    skills_count: z.number().int(),
    created_at: timestamp,
    social_handles: z.strictObject({
      twitter: z.string().nullable(),
      discord: z.string().nullable(),
      telegram: z.string().nullable(),
    }),
    status: z.enum(['active', 'paused']),
    erc8004: erc8004Ref.nullable().openapi({ description: 'The linked ERC-8004 identity (docs/erc8004.md), or null' }),
    endorsement_count: z.number().int().optional(),
    trust: trustBreakdown.optional(),
  })
  .openapi('AgentA');

/** A raised price waiting out its notice period (PRICE_NOTICE_SECONDS); present only while one is pending. */
export const pendingPriceFields = {
  price_pending_claw: clawOut
    .optional()
    .openapi({ description: 'A raised price_claw_per_call that applies from price_effective_at (present while pending)' }),
  price_effective_at: timestamp.optional().openapi({ description: 'When price_pending_claw applies' }),
};

/** Family B agent. `invoke_url` is shown to the owner only. */
export const agentB = z
  .strictObject({
    agent_id: z.uuid(),
    agent_name: z.string(),
    handle: z.string(),
    owner_wallet: addressOut,
    agent_pubkey: z.string(),
    scopes: z.array(z.string()),
    status: z.enum(['active', 'paused']),
    created: timestamp,
    bio: z.string(),
    avatar_url: z.string().nullable(),
    twitter_handle: z.string().nullable(),
    discord_handle: z.string().nullable(),
    telegram_handle: z.string().nullable(),
    is_callable: z.boolean(),
    invoke_url: z.string().nullable().optional().openapi({ description: 'Only in answers to the agent’s owner' }),
    invoke_schema: jsonObject.nullable(),
    price_claw_per_call: clawOut.openapi({ description: 'The price a call pays now' }),
    ...pendingPriceFields,
    max_spend_claw_per_day: clawOut.nullable(),
    metadata: jsonObject,
    tier: z.enum(TIERS),
    trust_score: z.number().int().min(0).max(280),
    propagated_trust_score: z.number().min(0).max(100),
    erc8004: erc8004Ref.nullable().openapi({ description: 'The linked ERC-8004 identity (docs/erc8004.md), or null' }),
    endorsement_count: z.number().int().optional(),
    connections_count: z.number().int().optional(),
    skills_count: z.number().int().optional(),
    trust: trustBreakdown.optional(),
  })
  .openapi('AgentB');

/** `total` of a list: exact without a filter; with one, exact up to 1,000 matches (or the page's end). */
const listTotal = listTotalFields('Agents', 'a filter');

export const agentListA = z
  .strictObject({ agents: z.array(agentA), ...listTotal, offset: z.number().int(), limit: z.number().int() })
  .openapi('AgentListA');

export const agentListB = z
  .strictObject({ agents: z.array(agentB), ...listTotal, limit: z.number().int(), offset: z.number().int() })
  .openapi('AgentListB');

/** GET /api/v1/agents/{id}: the record with its trust breakdown and recent activity. */
export const agentProfileB = withFields(agentB, {
  recent_activity: z.array(activityEntry).openapi({
    description: 'Events about the agent, newest first; caller wallets appear only in answers to the owner',
  }),
  activity_counts: z.strictObject({
    invocations_received_24h: z.number().int(),
    invocations_made_24h: z.number().int(),
  }),
}).openapi('AgentProfileB');

export const upsertResult = withFields(agentB, { already_existed: z.boolean() }).openapi('AgentUpsertResult');

export const bootstrapResult = z
  .strictObject({
    agent_id: z.uuid(),
    agent_name: z.string(),
    owner_wallet: addressOut,
    welcome_claw: clawOut,
    already_existed: z.boolean(),
  })
  .openapi('BootstrapResult');

export const listAgentsAQuery = z.object({
  with_metrics: queryBoolean.optional(),
  tier: z.enum(['entry', 'pro', 'enterprise']).optional(),
  limit: queryInt(1, 200, 50),
  offset: queryInt(0, 1_000_000, 0),
  min_trust_score: queryInt(0, 280, 0),
  search: z.string().max(100).optional(),
});

export const listAgentsBQuery = z.object({
  q: z.string().max(100).optional(),
  limit: queryInt(1, 100, 50),
  offset: queryInt(0, 1_000_000, 0),
  min_trust_score: queryInt(0, 280, 0),
  with_metrics: queryBoolean.optional(),
  is_callable: queryBoolean.optional(),
});

export const registerAgentBody = z.object({
  agentName,
  walletAddress,
  message: z.string().min(1).max(1000).openapi({ description: '`Register agent <agentName> <unix seconds>`' }),
  signature: z.string().min(1).max(10_000),
  handle: z.string().regex(HANDLE_PATTERN, 'must be 3-30 lowercase letters, digits or hyphens').optional(),
  bio: z.string().max(500).optional(),
  avatar_url: httpUrl.optional(),
});

export const updateProfileBody = z.object({
  name: agentName.optional(),
  bio: z.string().max(500).optional(),
  avatar_url: httpUrl.nullable().optional(),
  social_handles: z.object({ twitter: socialHandle, discord: socialHandle, telegram: socialHandle }).optional(),
  walletAddress: walletAddress.optional(),
  message: z.string().max(1000).optional().openapi({ description: '`Update profile <walletAddress> <unix seconds>`' }),
  signature: z.string().max(10_000).optional(),
});

export const upsertAgentBody = z.object({
  agent_name: agentName.optional(),
  scopes: scopeList.optional(),
  max_spend_claw_per_day: clawAmount.nullable().optional(),
  metadata: jsonObject.optional(),
});

export const bootstrapBody = z.object({
  agent_name: agentName.optional(),
  scopes: scopeList.optional(),
  max_spend_claw_per_day: clawAmount.optional(),
});

export const patchAgentBody = z.object({
  agent_name: agentName.optional(),
  bio: z.string().max(500).optional(),
  twitter_handle: z
    .string()
    .trim()
    .transform((value) => value.replace(/^@/, ''))
    .pipe(z.string().regex(/^[A-Za-z0-9_]{1,15}$/, 'must be a Twitter/X handle (1-15 letters, digits or _)'))
    .nullable()
    .optional(),
  discord_handle: socialHandle,
  telegram_handle: socialHandle,
  price_claw_per_call: clawAmount.optional(),
  max_spend_claw_per_day: clawAmount.nullable().optional(),
  status: z.enum(['active', 'paused']).optional(),
  is_callable: z.boolean().optional(),
  // An empty string clears the URL, as null does.
  invoke_url: z
    .string()
    .max(2048)
    .transform((value) => value.trim() || null)
    .nullable()
    .optional(),
  invoke_schema: jsonObject.nullable().optional(),
});
