import { endorserHasStanding } from './endorser-standing';
import type { Address } from 'viem';
import { findAgent, primaryAgentOf, requireAgent, UUID } from '../agents/find-agent';
import { currentRuntime } from '../core/runtime';
import { loadOneAgentMetrics } from './agent-metrics';
import { loadTrustCounts } from './trust-counts';
import { database, db } from '../core/db';
import type { Endorsement } from '../core/db/generated/client';
import { isUniqueViolation } from '../core/db/errors';
import { ApiError } from '../core/errors';
import { deriveTrustEdges } from './derive-edges';
import { endorsementColumns, endorsementFromRow } from './endorsement-row';
import { TRUST_RULES } from './trust-score';

export const ATTESTATION_TYPES = ['verified', 'trusted', 'skill_verified', 'security_audited'] as const;
export type AttestationType = (typeof ATTESTATION_TYPES)[number];

export const TRUST_IMPACT_FORMULA = `+${TRUST_RULES.attestations.points} trust per received endorsement (from an endorser with a tier, CLAW received from others or a paid call; others count 0) or positive attestation, at most +${TRUST_RULES.attestations.cap} in all`;

export function endorsementView(endorsement: Endorsement) {
  return {
    id: endorsement.id,
    attestation_type: endorsement.attestationType,
    subject_agent_id: endorsement.subjectAgentId,
    attestor_wallet: endorsement.endorserWallet,
    evidence_url: endorsement.evidenceUrl,
    stake_amount: endorsement.stakeAmount === null ? null : Number(endorsement.stakeAmount),
    status: endorsement.status,
    created_at: endorsement.createdAt.toISOString(),
    revoked_at: endorsement.revokedAt?.toISOString() ?? null,
  };
}

/** Where a page of endorsements ends: the last row's (created_at, id), as an opaque string. */
function endorsementCursor(row: Pick<Endorsement, 'createdAt' | 'id'>): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');
}

function readEndorsementCursor(cursor: string): { createdAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const createdAt = new Date(at ?? '');
  // what endorsementCursor() writes: a UUID and an instant of a created_at (years 1-9999, as the database keeps them)
  const year = createdAt.getUTCFullYear();
  if (!id || !UUID.test(id) || Number.isNaN(createdAt.getTime()) || year < 1 || year > 9999) {
    throw new ApiError('invalid_request', 'Unknown cursor: pass the next_cursor of a previous page', {
      fields: { cursor: 'is not a next_cursor of this list' },
    });
  }
  return { createdAt, id };
}

// A page's statements, prepared (Prisma's findMany took about 1 ms of the process's CPU per page).
const ACTIVE = `SELECT ${endorsementColumns('e')} FROM endorsements e WHERE e.subject_agent_id = $1::uuid AND e.status = 'active'`;
const FIRST_PAGE = `${ACTIVE} ORDER BY e.created_at DESC, e.id ASC LIMIT $2`;
// `created_at <= $2` is the index's range condition even in a generic plan, so a deep page of a hub starts where
// the cursor points (0.06 ms) instead of filtering every newer row (19,000 of them: 17-57 ms).
const PAGE_AFTER = `${ACTIVE} AND e.created_at <= $2 AND (e.created_at < $2 OR e.id > $3::uuid)
  ORDER BY e.created_at DESC, e.id ASC LIMIT $4`;

/**
 * GET /api/agents/{id}/endorse: one keyset page of the active endorsements, newest first (ties by id),
 * over the partial index endorsements (subject_agent_id, created_at DESC, id) WHERE status = 'active',
 * so a page of a hub with 100,000 endorsers costs what a page of anyone costs. `count` is every active
 * endorsement, from the maintained counts (trust-counts.ts), not a count of the table.
 */
export async function listEndorsements(ref: string, page: { limit?: number; cursor?: string } = {}) {
  const limit = page.limit ?? 50;
  const after = page.cursor ? readEndorsementCursor(page.cursor) : null;
  const agent = await requireAgent(ref);
  const { sql } = database();
  const [rows, counts] = await Promise.all([
    after
      ? sql.query<Record<string, unknown>>(PAGE_AFTER, [agent.id, after.createdAt, after.id, limit + 1], { prepare: true })
      : sql.query<Record<string, unknown>>(FIRST_PAGE, [agent.id, limit + 1], { prepare: true }),
    loadTrustCounts([agent.id], sql),
  ]);
  const endorsements = rows.slice(0, limit).map(endorsementFromRow);
  return {
    agent_id: agent.id,
    endorsements: endorsements.map(endorsementView),
    count: counts.get(agent.id)?.endorsementCount ?? 0,
    next_cursor: rows.length > limit ? endorsementCursor(endorsements.at(-1)!) : null,
    trust_impact_formula: TRUST_IMPACT_FORMULA,
  };
}

export interface EndorseInput {
  ref: string;
  /** The wallet that signed the endorsement (the REST door checked `message` against endorseActions()). */
  endorserWallet: Address;
  attestationType: AttestationType;
  evidenceUrl?: string;
  stakeAmount?: number;
  /** The signed text, kept with the endorsement. */
  message: string;
}

/**
 * The texts an endorsement may sign: `Endorse agent <id> as <type>` with the agent written as the
 * path has it (id or handle) or as its id. The text names the agent and type endorsed; a message for
 * another agent is refused.
 */
export async function endorseActions(ref: string, type: string): Promise<string[]> {
  const agent = await findAgent(ref);
  return [...new Set([ref, agent?.id ?? ref])].map((written) => `Endorse agent ${written} as ${type}`);
}

/**
 * Anti-Sybil rules for endorsers (docs/spec-decisions.md): only a wallet with a registered agent may
 * endorse (403), and its oldest agent must be ENDORSER_MIN_AGE_HOURS old (403 with the time left), so a
 * throwaway wallet cannot move a score the moment it exists.
 */
export async function assertMayEndorse(wallet: Address): Promise<void> {
  const endorser = await primaryAgentOf(wallet);
  if (!endorser) {
    throw new ApiError('forbidden', 'Only registered agents may endorse: register an agent for this wallet first', {
      reason: 'no_registered_agent',
    });
  }
  const minAgeMs = currentRuntime().config.ENDORSER_MIN_AGE_HOURS * 3_600_000;
  const waitMs = endorser.createdAt.getTime() + minAgeMs - Date.now();
  if (waitMs > 0) {
    const hours = currentRuntime().config.ENDORSER_MIN_AGE_HOURS;
    throw new ApiError('forbidden', `An endorser's agent must be at least ${hours} hours old`, {
      reason: 'endorser_too_new',
      min_age_hours: hours,
      endorser_agent_id: endorser.id,
      eligible_at: new Date(endorser.createdAt.getTime() + minAgeMs).toISOString(),
    });
  }
}

/**
 * The refusals of an endorsement (404 unknown agent, 400 its owner, 403 the anti-Sybil rules, 409 the
 * same type again), checked before the signature is (the endpoint's beforeSignature), so they cost the
 * endorser no signature. Returns the agent.
 */
export async function checkEndorsement(input: Pick<EndorseInput, 'ref' | 'endorserWallet' | 'attestationType'>) {
  const agent = await requireAgent(input.ref);
  if (agent.ownerWallet === input.endorserWallet) {
    throw new ApiError('invalid_request', 'An agent’s owner cannot endorse it', {
      fields: { endorser_wallet: 'is the agent’s owner' },
    });
  }
  await assertMayEndorse(input.endorserWallet);
  const existing = await db().endorsement.findFirst({
    where: {
      subjectAgentId: agent.id,
      endorserWallet: input.endorserWallet,
      attestationType: input.attestationType,
      status: 'active',
    },
    select: { id: true },
  });
  if (existing) throw duplicate(input.attestationType);
  return agent;
}

const duplicate = (type: string) =>
  new ApiError('duplicate_endorsement', `This wallet already endorsed the agent as ${type}`, { attestation_type: type });

/** POST /api/agents/{id}/endorse: the endorser signed `Endorse agent <id> as <type> <unix seconds>`. */
export async function endorseAgent(input: EndorseInput) {
  const agent = await checkEndorsement(input);
  const before = await loadOneAgentMetrics(agent, database().sql);
  let endorsement: Endorsement;
  try {
    endorsement = await db().endorsement.create({
      data: {
        subjectAgentId: agent.id,
        endorserWallet: input.endorserWallet,
        attestationType: input.attestationType,
        evidenceUrl: input.evidenceUrl ?? null,
        stakeAmount: input.stakeAmount === undefined ? null : String(input.stakeAmount),
        message: input.message,
      },
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(input.attestationType);
    throw error;
  }
  await deriveTrustEdges(agent.id, [input.endorserWallet], database().sql);
  const after = await loadOneAgentMetrics(agent, database().sql);
  const counts = await endorserHasStanding(input.endorserWallet, database().sql);
  return {
    endorsement: endorsementView(endorsement),
    trust_impact: {
      points: after.trust.total - before.trust.total,
      endorser_counts: counts,
      previous_trust_score: before.trust.total,
      new_trust_score: after.trust.total,
      formula: TRUST_IMPACT_FORMULA,
    },
  };
}

interface RevokeInput {
  ref: string;
  endorserWallet: Address;
  attestationId: string;
}

/** The refusals of a revocation (404, 403 not the endorser), checked before the signature is. */
export async function checkRevocation(input: RevokeInput) {
  const agent = await requireAgent(input.ref);
  const endorsement = await db().endorsement.findFirst({ where: { id: input.attestationId, subjectAgentId: agent.id } });
  if (!endorsement) throw ApiError.notFound('Endorsement');
  if (endorsement.endorserWallet !== input.endorserWallet) {
    throw new ApiError('forbidden', 'Only the endorser can revoke this endorsement');
  }
  return { agent, endorsement };
}

/** DELETE /api/agents/{id}/endorse: only the endorser, who signed `Revoke endorsement <attestation_id> <unix seconds>`. */
export async function revokeEndorsement(input: RevokeInput) {
  const { agent, endorsement } = await checkRevocation(input);
  const revoked =
    endorsement.status === 'revoked'
      ? endorsement
      : await db().endorsement.update({ where: { id: endorsement.id }, data: { status: 'revoked', revokedAt: new Date() } });
  await deriveTrustEdges(agent.id, [endorsement.endorserWallet], database().sql);
  const metrics = await loadOneAgentMetrics(agent, database().sql);
  return {
    revoked: true,
    attestation_id: revoked.id,
    endorsement: endorsementView(revoked),
    new_trust_score: metrics.trust.total,
  };
}
