import { loadOneAgentMetrics } from '../agents/agent-metrics';
import { requireAgent } from '../agents/find-agent';
import { db } from '../db';
import { propagatedTrust } from './propagated-trust';
import { onTrustChange } from './trust-cache';

// spec: cached 60 s. Entries are also dropped when the agent's trust or profile changes, so a
// change shows at once here and within 60 s on other instances. At most MAX_ENTRIES are kept.
export const PROFILE_TTL_MS = 60_000;
const MAX_ENTRIES = 1000;

type Profile = Awaited<ReturnType<typeof buildProfile>>;
const cache = new Map<string, { at: number; agentId: string; profile: Profile }>();

onTrustChange((agentId) => {
  if (agentId === null) return cache.clear();
  for (const [key, entry] of cache) if (entry.agentId === agentId) cache.delete(key);
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
  const { total, verification, reputation, activity, components, formula } = metrics.trust;
  return {
    agent: {
      id: agent.id,
      name: agent.name,
      handle: agent.handle,
      bio: agent.bio,
      tier: agent.tier,
      verification_status: components.verified > 0 ? 'verified' : 'unverified',
    },
    trust: { total, verification, reputation, activity, formula, components, propagated: propagated.get(agent.id) ?? 0 },
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
export async function publicProfile(ref: string): Promise<Profile> {
  const key = ref.toLowerCase();
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < PROFILE_TTL_MS) return hit.profile;
  const profile = await buildProfile(ref);
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, { at: Date.now(), agentId: profile.agent.id, profile });
  return profile;
}
