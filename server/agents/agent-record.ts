import type { Agent } from '../core/db/generated/client';

// An agent row read as json inside a combined statement (server/core/db/read-together.ts), turned into the
// record Prisma would have returned. Money columns travel as text: json numbers stop being exact past 2^53.

/** The json of agent `alias`'s row, for agentFromJson(). */
export const agentJsonSql = (alias: string) => `json_build_object('id', ${alias}.id, 'owner_wallet', ${alias}.owner_wallet,
  'agent_pubkey', ${alias}.agent_pubkey, 'name', ${alias}.name, 'handle', ${alias}.handle, 'bio', ${alias}.bio,
  'avatar_url', ${alias}.avatar_url, 'twitter_handle', ${alias}.twitter_handle, 'discord_handle', ${alias}.discord_handle,
  'telegram_handle', ${alias}.telegram_handle, 'tier', ${alias}.tier, 'status', ${alias}.status, 'scopes', ${alias}.scopes,
  'is_callable', ${alias}.is_callable, 'invoke_url', ${alias}.invoke_url, 'invoke_schema', ${alias}.invoke_schema,
  'price_claw_per_call', ${alias}.price_claw_per_call::text, 'price_pending', ${alias}.price_pending::text,
  'price_effective_at', ${alias}.price_effective_at, 'max_spend_per_day', ${alias}.max_spend_per_day::text,
  'metadata', ${alias}.metadata, 'verified_at', ${alias}.verified_at, 'admin_paused_at', ${alias}.admin_paused_at,
  'created_at', ${alias}.created_at, 'updated_at', ${alias}.updated_at)`;

export interface AgentJson {
  id: string;
  owner_wallet: string;
  agent_pubkey: string;
  name: string;
  handle: string;
  bio: string;
  avatar_url: string | null;
  twitter_handle: string | null;
  discord_handle: string | null;
  telegram_handle: string | null;
  tier: string;
  status: string;
  scopes: string[];
  is_callable: boolean;
  invoke_url: string | null;
  invoke_schema: Agent['invokeSchema'];
  price_claw_per_call: string;
  price_pending: string | null;
  price_effective_at: string | null;
  max_spend_per_day: string | null;
  metadata: Agent['metadata'];
  verified_at: string | null;
  admin_paused_at: string | null;
  created_at: string;
  updated_at: string;
}

const bigOrNull = (value: string | null) => (value === null ? null : BigInt(value));
const dateOrNull = (value: string | null) => (value === null ? null : new Date(value));

export function agentFromJson(row: AgentJson): Agent {
  return {
    id: row.id,
    ownerWallet: row.owner_wallet,
    agentPubkey: row.agent_pubkey,
    name: row.name,
    handle: row.handle,
    bio: row.bio,
    avatarUrl: row.avatar_url,
    twitterHandle: row.twitter_handle,
    discordHandle: row.discord_handle,
    telegramHandle: row.telegram_handle,
    tier: row.tier,
    status: row.status,
    scopes: row.scopes,
    isCallable: row.is_callable,
    invokeUrl: row.invoke_url,
    invokeSchema: row.invoke_schema,
    priceClawPerCall: BigInt(row.price_claw_per_call),
    pricePending: bigOrNull(row.price_pending),
    priceEffectiveAt: dateOrNull(row.price_effective_at),
    maxSpendPerDay: bigOrNull(row.max_spend_per_day),
    metadata: row.metadata,
    verifiedAt: dateOrNull(row.verified_at),
    adminPausedAt: dateOrNull(row.admin_paused_at),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}
