import type { Agent } from '../core/db/generated/client';

// An agent read by raw SQL, as Prisma's model: a list reads its page of agents, their counts and
// links in one statement (one round trip, not three), and every view takes Prisma's Agent. This is the
// one mapping from the agents table's columns to the model's fields. The table below must name every
// field of the model (the typecheck fails otherwise), and agent-row.int.test.ts compares the result
// with Prisma's own read of the same row, field by field, on PGlite and PostgreSQL.

type Kind = 'value' | 'bigint' | 'date' | 'list';

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
} as const satisfies Record<keyof Agent, readonly [column: string, kind: Kind]>;

const ENTRIES = Object.entries(FIELDS) as [keyof Agent, readonly [string, Kind]][];

/** The select list of every agent column of the table aliased `alias`, under the column's own name. */
export function agentColumns(alias: string): string {
  return ENTRIES.map(([, [column]]) => `${alias}.${column}`).join(', ');
}

/**
 * The json of every agent column of the table aliased `alias`, for a statement that returns an agent inside
 * a json value (server/core/db/read-together.ts); agentFromRow() reads it. int8 travels as text: json
 * numbers stop being exact past 2^53.
 */
export function agentJson(alias: string): string {
  return `json_build_object(${ENTRIES.map(([, [column, kind]]) => `'${column}', ${alias}.${column}${kind === 'bigint' ? '::text' : ''}`).join(', ')})`;
}

// int8 arrives as a string from node-postgres and as a number from PGlite; timestamps as Dates from both;
// Prisma reads a NULL list column as [].
const convert: Record<Kind, (value: unknown) => unknown> = {
  value: (value) => value,
  list: (value) => value ?? [],
  bigint: (value) => (value === null ? null : BigInt(value as string | number | bigint)),
  date: (value) => (value === null || value instanceof Date ? value : new Date(value as string)),
};

/** The Agent of a row that selected agentColumns(), or of the value of agentJson(). */
export function agentFromRow(row: Record<string, unknown>): Agent {
  const agent: Record<string, unknown> = {};
  for (const [field, [column, kind]] of ENTRIES) {
    if (!(column in row)) throw new Error(`agent row without column ${column}`);
    agent[field] = convert[kind](row[column] ?? null);
  }
  return agent as unknown as Agent;
}
