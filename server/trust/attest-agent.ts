import { requireAgent } from '../agents/find-agent';
import { loadOneAgentMetrics } from '../agents/agent-metrics';
import { db } from '../db';
import type { Caller } from '../http/caller';
import { ApiError } from '../http/errors';
import { rateLimitHeaders } from '../http/rate-limit';
import { deriveEdgesInto } from './derive-edges';
import { invalidateTrustViews } from './trust-cache';

export const ATTESTATION_WINDOW_MS = 7 * 24 * 3600 * 1000;

export interface AttestInput {
  verdict: 'positive' | 'negative' | 'neutral';
  weight: number;
  note?: string;
}

/**
 * POST /api/v1/agents/{id}/attest: one attestation per attesting wallet and subject per 7 days
 * (429 with Retry-After until the window ends); attesting an agent of your own wallet is refused.
 */
export async function attestAgent(caller: Caller, ref: string, input: AttestInput) {
  const subject = await requireAgent(ref);
  if (subject.ownerWallet === caller.wallet) {
    throw new ApiError('invalid_request', 'You cannot attest your own agent', {
      fields: { id: 'is an agent of the calling wallet' },
    });
  }
  const attestation = await db().$transaction(async (tx) => {
    // Serialises attestations of one pair so that two concurrent calls cannot both pass the window check.
    await tx.$queryRawUnsafe(
      'SELECT pg_advisory_xact_lock(hashtext($1))::text AS locked',
      `attest:${caller.wallet}:${subject.id}`,
    );
    const previous = await tx.attestation.findFirst({
      where: {
        attesterWallet: caller.wallet,
        subjectAgentId: subject.id,
        createdAt: { gt: new Date(Date.now() - ATTESTATION_WINDOW_MS) },
      },
      orderBy: { createdAt: 'desc' },
    });
    if (previous) {
      const resetSeconds = Math.max(1, Math.ceil((previous.createdAt.getTime() + ATTESTATION_WINDOW_MS - Date.now()) / 1000));
      throw new ApiError(
        'rate_limited',
        'You already attested this agent in the last 7 days',
        { previous_attestation_id: previous.id, retry_after: resetSeconds },
        { 'Retry-After': String(resetSeconds), ...rateLimitHeaders({ allowed: false, limit: 1, remaining: 0, resetSeconds }) },
      );
    }
    return tx.attestation.create({
      data: {
        subjectAgentId: subject.id,
        attesterWallet: caller.wallet,
        attesterAgentId: caller.agentId,
        verdict: input.verdict,
        weight: input.weight,
        note: input.note ?? null,
      },
    });
  });
  await deriveEdgesInto(subject.id);
  invalidateTrustViews(subject.id);
  const metrics = await loadOneAgentMetrics(subject);
  return {
    attested: true,
    attestation_id: attestation.id,
    agent_id: subject.id,
    new_trust_score: metrics.trust.total,
    verdict: attestation.verdict,
    weight: attestation.weight,
    note: attestation.note,
    created_at: attestation.createdAt.toISOString(),
  };
}
