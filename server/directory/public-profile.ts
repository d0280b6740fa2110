import { loadOneAgentMetrics } from '../trust/agent-metrics';
import { requireAgent } from '../agents/find-agent';
import { sharedCache } from '../core/shared-state';
import { database, db } from '../core/db';

// spec: cached 60 s. Entries are also dropped the moment an agent or trust change commits
// anywhere, so a change always shows at once.
export const PROFILE_TTL_MS = 60_000;

type Profile = Awaited<ReturnType<typeof buildProfile>>;
const profiles = sharedCache<Profile>('directory.public-profiles', {
  ttlMs: PROFILE_TTL_MS,
  maxEntries: 1000,
  dropOn: ['agent', 'trust'],
});

async function buildProfile(ref: string) {
  const agent = await requireAgent(ref);
  const [metrics, endorsements, attestations, skills] = await Promise.all([
    loadOneAgentMetrics(agent, database().sql),
    db().endorsement.findMany({
      where: { subjectAgentId: agent.id, status: 'active' },
      orderBy: { createdAt: 'desc' },
      take: 100,
    }),
    db().attestation.findMany({ where: { subjectAgentId: agent.id }, orderBy: { createdAt: 'desc' }, take: 100 }),
    db().skill.findMany({
      where: { authorAgentId: agent.id, status: 'active', removedAt: null, hiddenAt: null },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      take: 100,
      select: { name: true, category: true, pricingType: true },
    }),
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
    trust: { ...metrics.trust, propagated: metrics.propagatedTrust },
    attestations: [
      ...endorsements.map((e) => ({ attestation_type: e.attestationType, created_at: e.createdAt.toISOString() })),
      ...attestations.map((a) => ({
        attestation_type: 'peer_attestation',
        verdict: a.verdict,
        weight: a.weight,
        created_at: a.createdAt.toISOString(),
      })),
    ].sort((a, b) => b.created_at.localeCompare(a.created_at)),
    // Published active skills (the skills trigger drops this cache when one appears or goes).
    skills: skills.map((skill) => ({ name: skill.name, category: skill.category, pricing_type: skill.pricingType })),
  };
}

/** GET /api/agents/{id}/public-profile */
export function publicProfile(ref: string): Promise<Profile> {
  return profiles().get(ref.toLowerCase(), () => buildProfile(ref));
}
