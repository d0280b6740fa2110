import { z } from 'zod';
import { listAgents } from '../../directory/list-agents';
import { presentAgentsB } from '../../directory/agent-views';
import { agentProfileB } from '../../directory/agent-profile';
import { publicProfile } from '../../directory/public-profile';
import { listEndorsements } from '../../trust/endorsements';
import endorseEndpoint from '../../api/a/agents.[id].endorse.post';
import { TIERS } from '../../schemas/agent';
import { TRUST_MAX } from '../../trust/trust-score';
import { publicProcedure, router } from '../init';
import { procedureFrom } from '../procedure-from';

const ref = z.string().trim().min(1).max(64);

export const agentsRouter = router({
  /** The directory and the home page's look-up: search by name, handle or owner wallet, tier and minimum trust filters, pages of `pageSize`. */
  list: publicProcedure
    .input(
      z.object({
        search: z.string().max(100).optional(),
        tier: z.enum(TIERS).optional(),
        minTrust: z.number().int().min(0).max(TRUST_MAX).default(0),
        callable: z.boolean().optional(),
        page: z.number().int().min(1).max(10_000).default(1),
        pageSize: z.number().int().min(1).max(100).default(20),
      }),
    )
    .query(async ({ input }) => {
      const { agents, metrics, total, totalExact } = await listAgents({
        search: input.search,
        searchWallets: true,
        tier: input.tier,
        isCallable: input.callable,
        minTrustScore: input.minTrust,
        limit: input.pageSize,
        offset: (input.page - 1) * input.pageSize,
      });
      return {
        agents: await presentAgentsB(agents, {}, metrics),
        total,
        total_exact: totalExact,
        page: input.page,
        pageSize: input.pageSize,
      };
    }),
  /** One agent's page: record with trust breakdown and recent activity, endorsements, attestations. */
  get: publicProcedure.input(z.object({ ref })).query(async ({ input, ctx }) => {
    const profile = await agentProfileB(input.ref, ctx.wallet);
    const [endorsements, publicView] = await Promise.all([listEndorsements(profile.agent_id), publicProfile(profile.agent_id)]);
    return {
      profile,
      endorsements,
      attestations: publicView.attestations,
      skills: publicView.skills,
      propagated: publicView.trust.propagated,
    };
  }),
  /** POST /api/agents/{id}/endorse from the agent's page: the session's wallet signed `Endorse agent <id> as <type> <unix seconds>`. */
  endorse: procedureFrom(
    endorseEndpoint,
    (input: { ref: string; attestationType: string; evidenceUrl?: string; message: string; signature: string }, session) => ({
      params: { id: input.ref },
      body: {
        endorser_wallet: session.wallet,
        attestation_type: input.attestationType,
        evidence_url: input.evidenceUrl,
        message: input.message,
        signature: input.signature,
      },
    }),
    { signedIn: true },
  ),
});
