import { getAddress, type Address } from 'viem';
import { database } from '../core/db';
import type { Caller } from '../core/caller';
import { ApiError } from '../core/errors';
import { microToClaw } from '../core/money';
import { decisionText, type ApprovalRow } from './spend-policy';

// Pending spend approvals (spend-policy.ts): the wallet's credentials read them; only the wallet's own
// signature over the exact text decides one (docs/payments.md "Spend policies").

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export function approvalView(row: ApprovalRow) {
  const expired = (row.status === 'pending' || row.status === 'approved') && new Date(row.expires_at).getTime() <= Date.now();
  return {
    approval_id: row.id,
    status: (expired ? 'expired' : row.status) as 'pending' | 'approved' | 'rejected' | 'used' | 'expired',
    credential_id: row.credential_id,
    reason: row.reason,
    payee_agent_id: row.payee_agent_id,
    payee_wallet: row.payee_wallet ? getAddress(row.payee_wallet) : null,
    amount_claw: microToClaw(BigInt(row.amount)),
    created_at: iso(row.created_at)!,
    expires_at: iso(row.expires_at)!,
    decided_at: iso(row.decided_at),
    used_at: iso(row.used_at),
    approve_message: decisionText('Approve', row),
    reject_message: decisionText('Reject', row),
  };
}

/** GET /api/v1/approvals: the caller's wallet's approvals, newest first (at most 100). */
export async function listApprovals(wallet: string, status?: string) {
  const rows = await database().sql.query<ApprovalRow>(
    `SELECT * FROM spend_approvals WHERE lower(wallet) = lower($1) ORDER BY created_at DESC, id LIMIT 200`,
    [wallet],
  );
  const views = rows.map(approvalView).filter((view) => !status || view.status === status);
  return { approvals: views.slice(0, 100) };
}

async function loadApproval(id: string): Promise<ApprovalRow | null> {
  const [row] = await database().sql.query<ApprovalRow>('SELECT * FROM spend_approvals WHERE id = $1::uuid', [id]);
  return row ?? null;
}

/** GET /api/v1/approvals/{id}: one of the caller's wallet's approvals (404 for anyone else's). */
export async function getApproval(caller: Caller, id: string) {
  const row = await loadApproval(id);
  if (!row || row.wallet.toLowerCase() !== caller.wallet.toLowerCase()) throw ApiError.notFound('Approval');
  return approvalView(row);
}

type Decision = 'approve' | 'reject';

// A decision reads its approval once: the signer lookup, the signed text and the decision of one
// request all receive that request's parsed `params` object, which keys the row it read.
const decisionRows = new WeakMap<{ id: string }, Promise<ApprovalRow>>();

function decisionRow(params: { id: string }): Promise<ApprovalRow> {
  let row = decisionRows.get(params);
  if (!row) {
    row = (async () => {
      const found = await loadApproval(params.id);
      if (!found) throw ApiError.notFound('Approval');
      return found;
    })();
    decisionRows.set(params, row);
  }
  return row;
}

/** The wallet whose signature decides an approval: its owner wallet (404 for an unknown approval). */
export async function approvalSigner(params: { id: string }): Promise<Address> {
  return getAddress((await decisionRow(params)).wallet);
}

/** The exact text (before " <unix seconds>") the owner signs to approve, or to reject, an approval. */
export async function approvalAction(params: { id: string }, decision: Decision): Promise<string> {
  return decisionText(decision === 'approve' ? 'Approve' : 'Reject', await decisionRow(params));
}

/**
 * POST /api/v1/approvals/{id}/approve (or /reject), once the policy has checked the owner wallet's
 * signature of approvalAction() (a signed body, fresh and never used before; any other wallet's is
 * 401 and changes nothing): records the decision; an approval no longer pending is 409.
 */
export async function decideApproval(params: { id: string }, decision: Decision) {
  const row = await decisionRow(params);
  const [updated] = await database().sql.query<ApprovalRow>(
    `UPDATE spend_approvals SET status = $2, decided_at = now()
     WHERE id = $1::uuid AND status = 'pending' AND expires_at > now() RETURNING *`,
    [params.id, decision === 'approve' ? 'approved' : 'rejected'],
  );
  if (!updated) {
    throw new ApiError('conflict', 'This approval is no longer pending', { status: approvalView(row).status });
  }
  return approvalView(updated);
}
