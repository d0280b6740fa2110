import type { Skill } from '../core/db/generated/client';
import { modelRows } from '../core/db/model-row';

// A skill read by raw SQL, as Prisma's model (server/core/db/model-row.ts), for the skill lists;
// skill-row.int.test.ts compares it with Prisma's own read of the same row.
const rows = modelRows<Skill>('skill', {
  id: ['id', 'value'],
  authorAgentId: ['author_agent_id', 'value'],
  authorWallet: ['author_wallet', 'value'],
  name: ['name', 'value'],
  summary: ['summary', 'value'],
  description: ['description', 'value'],
  category: ['category', 'value'],
  tags: ['tags', 'list'],
  pricingType: ['pricing_type', 'value'],
  price: ['price', 'bigint'],
  repoUrl: ['repo_url', 'value'],
  status: ['status', 'value'],
  integrationType: ['integration_type', 'value'],
  integrationPayload: ['integration_payload', 'value'],
  version: ['version', 'value'],
  rating: ['rating', 'value'],
  installCount: ['install_count', 'value'],
  stake: ['stake', 'bigint'],
  family: ['family', 'value'],
  flagReasons: ['flag_reasons', 'list'],
  createdAt: ['created_at', 'date'],
  removedAt: ['removed_at', 'date'],
  hiddenAt: ['hidden_at', 'date'],
  hiddenBy: ['hidden_by', 'value'],
});

/** The select list of every skill column of the table aliased `alias`. */
export const skillColumns = rows.columns;

/** The Skill of a row that selected skillColumns(). */
export const skillFromRow = rows.fromRow;
