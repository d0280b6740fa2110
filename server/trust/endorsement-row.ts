import type { Endorsement } from '../core/db/generated/client';
import { modelRows } from '../core/db/model-row';

// An endorsement read by raw SQL, as Prisma's model (server/core/db/model-row.ts), for the endorsement list;
// endorsement-row.int.test.ts compares it with Prisma's own read of the same row.
const rows = modelRows<Endorsement>('endorsement', {
  id: ['id', 'value'],
  subjectAgentId: ['subject_agent_id', 'value'],
  endorserWallet: ['endorser_wallet', 'value'],
  attestationType: ['attestation_type', 'value'],
  evidenceUrl: ['evidence_url', 'value'],
  stakeAmount: ['stake_amount', 'value'],
  message: ['message', 'value'],
  status: ['status', 'value'],
  createdAt: ['created_at', 'date'],
  revokedAt: ['revoked_at', 'date'],
});

/** The select list of every endorsement column of the table aliased `alias`. */
export const endorsementColumns = rows.columns;

/** The Endorsement of a row that selected endorsementColumns(). */
export const endorsementFromRow = rows.fromRow;
