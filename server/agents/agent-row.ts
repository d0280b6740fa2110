import type { Agent } from '../core/db/generated/client';
import { modelRows } from '../core/db/model-row';

// An agent read by raw SQL, as Prisma's model (server/core/db/model-row.ts): a list reads its page of
// agents, their counts and links in one statement (one round trip, not three), and every view takes
// Prisma's Agent. This is the one mapping from the agents table's columns to the model's fields;
// agent-json.int.test.ts compares it with Prisma's own read of the same row.

const FIELDS = {
  id: ['id', 'value'],
  ownerWallet: ['owner_wallet', 'value'],
  agentPubkey: ['agent_pubkey', 'value'],
  name: ['name', 'value'],
  handle: ['handle', 'value'],
  bio: ['bio', 'value'],
  avatarUrl: ['avatar_url', 'value'],
  twitterHandle: ['twitter_handle', 'value'],
  discordHandle: ['discord_handle', 'value'],
  telegramHandle: ['telegram_handle', 'value'],
  tier: ['tier', 'value'],
  status: ['status', 'value'],
  scopes: ['scopes', 'list'],
  isCallable: ['is_callable', 'value'],
  invokeUrl: ['invoke_url', 'value'],
  invokeSchema: ['invoke_schema', 'value'],
  priceClawPerCall: ['price_claw_per_call', 'bigint'],
  pricePending: ['price_pending', 'bigint'],
  priceEffectiveAt: ['price_effective_at', 'date'],
  maxSpendPerDay: ['max_spend_per_day', 'bigint'],
  metadata: ['metadata', 'value'],
  verifiedAt: ['verified_at', 'date'],
  adminPausedAt: ['admin_paused_at', 'date'],
  createdAt: ['created_at', 'date'],
  updatedAt: ['updated_at', 'date'],
} as const;

const rows = modelRows<Agent>('agent', FIELDS);

/** The select list of every agent column of the table aliased `alias`, under the column's own name. */
export const agentColumns = rows.columns;

/**
 * The json of every agent column of the table aliased `alias`, for a statement that returns an agent inside
 * a json value (server/core/db/read-together.ts); agentFromRow() reads it.
 */
export const agentJson = rows.json;

/** The Agent of a row that selected agentColumns(), or of the value of agentJson(). */
export const agentFromRow = rows.fromRow;
