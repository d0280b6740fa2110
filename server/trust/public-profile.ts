import { loadOneAgentMetrics } from '../agents/agent-metrics';
import { requireAgent } from '../agents/find-agent';
import { TtlCache } from '../cache/ttl-cache';
import { db } from '../db';
import { propagatedTrust } from './propagated-trust';
import { onTrustChange } from './trust-cache';

// spec: cached 60 s. Entries are also dropped when the agent's trust or profile changes, so a
// change shows at once here and within 60 s on other instances.
export const PROFILE_TTL_MS = 60_000;

type Profile = Awaited<ReturnType<typeof buildProfile>>;
const profiles = new TtlCache<Profile>(PROFILE_TTL_MS, 1000);

onTrustChange((agentId) => {
  if (agentId === null) profiles.clear();
  // An entry still loading when the change lands may predate it: drop those too.
  else profiles.deleteWhere((_ref, profile) => profile === undefined || profile.agent.id === agentId);
});

async function buildProfile(ref: string) {
  const agent = await requireAgent(ref);
  const [metrics, endorsements, attestations, propagated] = await Promise.all([
    loadOneAgentMetrics(agent),
    db().endorsement.findMany({
      where: { subjectAgentId: agent.id, status: 'active' },
      orderBy: { createdAt: 'desc' },
      take: 100,
    }),
    db().attestation.findMany({ where: { subjectAgentId: agent.id }, orderBy: { createdAt: 'desc' }, take: 100 }),
    propagatedTrust(),
  ]);
  return {
    agent: {
      id: agent.id,
      name: agent.name,
      handle: agent.handle,
      bio: agent.bio,
      tier: agent.tier,
      verification_status: metrics.trust.components.verified > 0 ? 'verified' : 'unverified',
    },
    trust: { ...metrics.trust, propagated: propagated.get(agent.id) ?? 0 },
    attestations: [
      ...endorsements.map((e) => ({ attestation_type: e.attestationType, created_at: e.createdAt.toISOString() })),
      ...attestations.map((a) => ({
        attestation_type: 'peer_attestation',
        verdict: a.verdict,
        weight: a.weight,
        created_at: a.createdAt.toISOString(),
      })),
    ].sort((a, b) => b.created_at.localeCompare(a.created_at)),
    // Published skills arrive with the skills marketplace.
    skills: [] as { name: string; category: string; pricing_type: string }[],
  };
}

/** GET /api/agents/{id}/public-profile */
export function publicProfile(ref: string): Promise<Profile> {
  return profiles.get(ref.toLowerCase(), () => buildProfile(ref));
}
