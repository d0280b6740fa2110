import { randomUUID } from 'node:crypto';
import { getAddress } from 'viem';
import { database } from '../core/db';
import type { SqlParams, Queryable } from '../core/db/sql-runner';
import { afterRollback, ApiError } from '../core/errors';
import { microToClaw } from '../core/money';
import { sharedCache } from '../core/shared-state';

// Spend policies (docs/payments.md "Spend policies"): per credential (an API key or an access token),
// beside the daily limit, an allowlist of payees, a per-call maximum and an approval threshold above
// which a spend waits for the owner's signed approval. Enforced for every spend in callerPays() (and,
// for spends that do not debit the ledger through it, by assertSpendAllowed()).

/** How long a pending or approved approval stays usable. */
export const APPROVAL_TTL_MS = 24 * 3600 * 1000;

/** Whom a spend pays: an agent and/or a wallet; null for the platform itself (fees, escrow with no payee yet). */
export interface Payee {
  agentId?: string | null;
  wallet?: string | null;
}

export interface SpendRequest {
  /** null: the platform (a creation fee, a subscription, a bounty's escrow before a winner exists). */
  payee: Payee | null;
  /** micro-CLAW (or its equivalent, for a top-up). */
  amount: bigint;
  /** What the spend is for (the ledger reason, for example invocation_charge); approvals match on it. */
  reason: string;
}

/** The paying credential: a wallet and the credential the call came with (null: none, no policy). */
export interface SpendingCredential {
  wallet: string;
  credentialId?: string | null;
}

export interface SpendPolicyRow {
  credential_id: string;
  wallet: string;
  restrict_payees: boolean;
  allowed_payees: string[] | null;
  max_per_call: string | bigint | null;
  approval_above: string | bigint | null;
}

export interface ApprovalRow {
  id: string;
  wallet: string;
  credential_id: string;
  reason: string;
  payee_agent_id: string | null;
  payee_wallet: string | null;
  amount: string | bigint;
  status: string;
  created_at: Date | string;
  expires_at: Date | string;
  decided_at: Date | string | null;
  used_at: Date | string | null;
}

// Every paid call checks its credential's policy: kept here (most credentials have none, which is kept too)
// until a policy is written, changed or deleted anywhere (the spend_policy change notice, which reaches this
// instance before its own write returns). Reads inside a transaction go to the database.
const policies = sharedCache<{ row: SpendPolicyRow | null }>('credits.spend-policies', {
  ttlMs: 60_000,
  maxEntries: 50_000,
  dropOn: ['spend_policy', 'credential'],
});

/** The policy of a credential, from the cache when `runner` is the process-wide database. */
async function policyFor(credentialId: string, runner: Queryable): Promise<SpendPolicyRow | null> {
  if (runner !== database().sql) return loadSpendPolicy(credentialId, runner);
  return (await policies().get(credentialId, async () => ({ row: await loadSpendPolicy(credentialId, runner) }))).row;
}

const big = (value: string | bigint | null): bigint | null => (value === null ? null : BigInt(value));

export async function loadSpendPolicy(credentialId: string, runner: Queryable): Promise<SpendPolicyRow | null> {
  const [row] = await runner.query<SpendPolicyRow>(
    `SELECT credential_id, wallet, restrict_payees, allowed_payees, max_per_call, approval_above
     FROM spend_policies WHERE credential_id = $1::uuid`,
    [credentialId],
  );
  return row ?? null;
}

/** A policy as the API shows it. */
export function policyView(row: SpendPolicyRow | null) {
  const maxPerCall = big(row?.max_per_call ?? null);
  const approvalAbove = big(row?.approval_above ?? null);
  return {
    allowed_payees: row?.restrict_payees ? (row.allowed_payees ?? []) : null,
    max_claw_per_call: maxPerCall === null ? null : microToClaw(maxPerCall),
    approval_above_claw: approvalAbove === null ? null : microToClaw(approvalAbove),
  };
}

/** A policy change: absent fields are kept, null clears one. Amounts in micro-CLAW. */
export interface SpendPolicyInput {
  allowed_payees?: string[] | null;
  max_claw_per_call?: bigint | null;
  approval_above_claw?: bigint | null;
}

/** Writes (merges) the policy of one credential of `wallet`. */
export async function writeSpendPolicy(
  credentialId: string,
  wallet: string,
  input: SpendPolicyInput,
  runner: Queryable,
): Promise<SpendPolicyRow> {
  const current = await loadSpendPolicy(credentialId, runner);
  const restrict = input.allowed_payees === undefined ? (current?.restrict_payees ?? false) : input.allowed_payees !== null;
  const payees = input.allowed_payees === undefined ? (current?.allowed_payees ?? []) : [...new Set(input.allowed_payees ?? [])];
  const maxPerCall = input.max_claw_per_call === undefined ? big(current?.max_per_call ?? null) : input.max_claw_per_call;
  const approvalAbove =
    input.approval_above_claw === undefined ? big(current?.approval_above ?? null) : input.approval_above_claw;
  const [row] = await runner.query<SpendPolicyRow>(
    `INSERT INTO spend_policies (credential_id, wallet, restrict_payees, allowed_payees, max_per_call, approval_above, updated_at)
     VALUES ($1::uuid, $2, $3, $4::text[], $5::bigint, $6::bigint, now())
     ON CONFLICT (credential_id) DO UPDATE SET restrict_payees = excluded.restrict_payees,
       allowed_payees = excluded.allowed_payees, max_per_call = excluded.max_per_call,
       approval_above = excluded.approval_above, updated_at = now()
     RETURNING credential_id, wallet, restrict_payees, allowed_payees, max_per_call, approval_above`,
    [credentialId, wallet, restrict, payees, maxPerCall?.toString() ?? null, approvalAbove?.toString() ?? null],
  );
  return row!;
}

/** Copies one credential's policy to another (a key minted by a delegated credential inherits it). */
export async function copySpendPolicy(from: string, to: string, runner: Queryable): Promise<void> {
  await runner.query(
    `INSERT INTO spend_policies (credential_id, wallet, restrict_payees, allowed_payees, max_per_call, approval_above)
     SELECT $2::uuid, wallet, restrict_payees, allowed_payees, max_per_call, approval_above
     FROM spend_policies WHERE credential_id = $1::uuid
     ON CONFLICT (credential_id) DO NOTHING`,
    [from, to],
  );
}

function payeeMatches(policy: SpendPolicyRow, payee: Payee): boolean {
  const allowed = new Set((policy.allowed_payees ?? []).map((entry) => entry.toLowerCase()));
  return (
    (payee.agentId != null && allowed.has(payee.agentId.toLowerCase())) ||
    (payee.wallet != null && allowed.has(payee.wallet.toLowerCase()))
  );
}

function refuseUnlistedPayee(policy: SpendPolicyRow, payee: Payee | null): void {
  if (policy.restrict_payees && payee && !payeeMatches(policy, payee)) {
    throw new ApiError('payee_not_allowed', 'This credential’s spend policy does not allow paying this payee', {
      payee_agent_id: payee.agentId ?? null,
      payee_wallet: payee.wallet ? getAddress(payee.wallet) : null,
    });
  }
}

/**
 * Only the payee allowlist, for money already held that a decision sends to a payee (accepting a
 * job's bid names who gets the escrowed bounty): 403 payee_not_allowed.
 */
export async function assertPayeeAllowed(payer: SpendingCredential, payee: Payee, runner: Queryable): Promise<void> {
  if (!payer.credentialId) return;
  const policy = await loadSpendPolicy(payer.credentialId, runner);
  if (policy) refuseUnlistedPayee(policy, payee);
}

/** The exact text (before " <unix seconds>") an owner signs to approve, or to reject, an approval. */
export function decisionText(
  decision: 'Approve' | 'Reject',
  row: Pick<ApprovalRow, 'id' | 'amount' | 'payee_agent_id' | 'payee_wallet'>,
): string {
  const payee = row.payee_agent_id
    ? `agent ${row.payee_agent_id}`
    : row.payee_wallet
      ? `wallet ${getAddress(row.payee_wallet)}`
      : 'the platform';
  return `${decision} spend ${row.id}: ${microToClaw(BigInt(row.amount))} CLAW to ${payee}`;
}

/**
 * Checks one spend against the paying credential's policy. Returns the id of an approved approval
 * this spend uses (the caller must consume it, once, in the statement that moves the money), or null.
 * Throws 403 payee_not_allowed, 402 per_call_limit_exceeded, or 402 approval_required with a pending
 * approval's id (created, or the one already waiting for the same spend).
 */
export async function checkSpendPolicy(
  payer: SpendingCredential,
  spend: SpendRequest,
  runner: Queryable,
): Promise<string | null> {
  if (!payer.credentialId || spend.amount <= 0n) return null;
  const policy = await policyFor(payer.credentialId, runner);
  if (!policy) return null;
  const payee = spend.payee;
  refuseUnlistedPayee(policy, payee);
  const maxPerCall = big(policy.max_per_call);
  if (maxPerCall !== null && spend.amount > maxPerCall) {
    throw new ApiError('per_call_limit_exceeded', 'This spend is above the credential’s per-call maximum (max_claw_per_call)', {
      requested_claw: microToClaw(spend.amount),
      max_claw_per_call: microToClaw(maxPerCall),
    });
  }
  const threshold = big(policy.approval_above);
  if (threshold === null || spend.amount <= threshold) return null;

  const payeeAgent = payee?.agentId ?? null;
  const payeeWallet = payee?.wallet ? getAddress(payee.wallet) : null;
  // An approval given for this credential, reason, payee and at least this amount, unused and unexpired.
  const [match] = await runner.query<ApprovalRow>(
    `SELECT * FROM spend_approvals
     WHERE credential_id = $1::uuid AND reason = $2 AND payee_agent_id IS NOT DISTINCT FROM $3::uuid
       AND payee_wallet IS NOT DISTINCT FROM $4 AND amount >= $5::bigint AND expires_at > now()
       AND status IN ('approved', 'pending')
     ORDER BY (status = 'approved') DESC, amount ASC, created_at ASC LIMIT 1`,
    [payer.credentialId, spend.reason, payeeAgent, payeeWallet, spend.amount.toString()],
  );
  if (match?.status === 'approved') return match.id;

  const pending: ApprovalRow = match ?? {
    id: randomUUID(),
    wallet: getAddress(payer.wallet),
    credential_id: payer.credentialId,
    reason: spend.reason,
    payee_agent_id: payeeAgent,
    payee_wallet: payeeWallet,
    amount: spend.amount,
    status: 'pending',
    created_at: new Date(),
    expires_at: new Date(Date.now() + APPROVAL_TTL_MS),
    decided_at: null,
    used_at: null,
  };
  const error = new ApiError(
    'approval_required',
    'This spend is above the credential’s approval threshold: it waits for the owner’s signed approval; retry once approved',
    {
      approval_id: pending.id,
      approval_url: `/api/v1/approvals/${pending.id}`,
      amount_claw: microToClaw(spend.amount),
      approval_above_claw: microToClaw(threshold),
      payee_agent_id: payeeAgent,
      payee_wallet: payeeWallet,
      expires_at: new Date(pending.expires_at).toISOString(),
    },
  );
  if (match) throw error;
  const insert = (sql: Queryable) =>
    sql.query(
      `INSERT INTO spend_approvals (id, wallet, credential_id, reason, payee_agent_id, payee_wallet, amount, status, expires_at)
       VALUES ($1::uuid, $2, $3::uuid, $4, $5::uuid, $6, $7::bigint, 'pending', $8::timestamptz) ON CONFLICT (id) DO NOTHING`,
      [
        pending.id,
        pending.wallet,
        pending.credential_id,
        pending.reason,
        pending.payee_agent_id,
        pending.payee_wallet,
        spend.amount.toString(),
        new Date(pending.expires_at),
      ],
    );
  const global = database().sql;
  // Outside a transaction the record is written now; inside one (which this refusal rolls back), once
  // the door has seen the error (runAfterRollback).
  if (runner === global) await insert(global);
  else afterRollback(error, () => insert(global).then(() => undefined));
  throw error;
}

/** The CTEs that spend approval `approvalId` in the same statement as the payment (callerPays). */
export function approvalUseCtes(p: SqlParams, approvalId: string): string[] {
  return [
    `spend_approval_use AS (
      INSERT INTO spend_approval_uses (approval_id) SELECT ${p.add(approvalId)}::uuid FROM txn RETURNING approval_id)`,
    `spend_approval_used AS (
      UPDATE spend_approvals SET status = 'used', used_at = now()
      WHERE id IN (SELECT approval_id FROM spend_approval_use) RETURNING id)`,
  ];
}

export function approvalAlreadyUsed(): ApiError {
  return new ApiError('conflict', 'This approval was already used; the spend needs a new approval');
}

export function isApprovalReuse(error: unknown): boolean {
  const e = error as { constraint?: string; message?: string };
  return (
    e?.constraint === 'spend_approval_uses_pkey' ||
    (typeof e?.message === 'string' && e.message.includes('spend_approval_uses_pkey'))
  );
}

/**
 * For spends that do not go through callerPays (the x402 top-up): checks the caller's credential's
 * spend policy for paying `payee` (null: the platform) `amount` micro-CLAW (or its equivalent) and,
 * when an approved approval covers it, spends that approval now (once). Throws the same errors as
 * callerPays: 403 payee_not_allowed, 402 per_call_limit_exceeded, 402 approval_required (with
 * details.approval_id), 409 when the approval was used meanwhile. Pass the transaction's runner when
 * the spend happens in one (the approval's use then rolls back with it).
 */
export async function assertSpendAllowed(
  caller: SpendingCredential,
  spend: SpendRequest,
  runner: Queryable = database().sql,
): Promise<{ approvalId: string | null }> {
  const approvalId = await checkSpendPolicy(caller, spend, runner);
  if (!approvalId) return { approvalId: null };
  const rows = await runner.query(
    `WITH u AS (INSERT INTO spend_approval_uses (approval_id) VALUES ($1::uuid) ON CONFLICT DO NOTHING RETURNING approval_id)
     UPDATE spend_approvals SET status = 'used', used_at = now() WHERE id IN (SELECT approval_id FROM u) RETURNING id`,
    [approvalId],
  );
  if (rows.length !== 1) throw approvalAlreadyUsed();
  return { approvalId };
}
