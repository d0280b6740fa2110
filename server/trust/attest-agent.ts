import { requireAgent } from '../agents/find-agent';
import { loadOneAgentMetrics } from './agent-metrics';
import { database, db } from '../core/db';
import type { Caller } from '../core/caller';
import { ApiError } from '../core/errors';
import { deriveTrustEdges } from './derive-edges';

export interface AttestInput {
  verdict: 'positive' | 'negative' | 'neutral';
  weight: number;
  note?: string;
}

/**
 * POST /api/v1/agents/{id}/attest: attesting an agent of your own wallet is refused. The spec's
 * one attestation per pair per 7 days is the endpoint's declared rate limit (policy `attest`).
 */
export async function attestAgent(caller: Caller, ref: string, input: AttestInput) {
  const subject = await requireAgent(ref);
  if (subject.ownerWallet === caller.wallet) {
    throw new ApiError('invalid_request', 'You cannot attest your own agent', {
      fields: { id: 'is an agent of the calling wallet' },
    });
  }
  const attestation = await db().attestation.create({
    data: {
      subjectAgentId: subject.id,
      attesterWallet: caller.wallet,
      attesterAgentId: caller.agentId,
      verdict: input.verdict,
      weight: input.weight,
      note: input.note ?? null,
    },
  });
  await deriveTrustEdges(subject.id, [caller.wallet], database().sql);
  const metrics = await loadOneAgentMetrics(subject, database().sql);
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
