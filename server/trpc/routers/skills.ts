import { z } from 'zod';
import { listSkills } from '../../skills/list-skills';
import { exampleSkills } from '../../skills/example-skills';
import installEndpoint from '../../api/a/skills.[id].install.post';
import publishEndpoint from '../../api/a/skills.post';
import { SKILL_CATEGORIES_B, skillUploadA } from '../../schemas/skill';
import { publicProcedure, router } from '../init';
import { procedureFrom } from '../procedure-from';

export const skillsRouter = router({
  /** The marketplace: active skills only (never drafts or removed ones), search, category and pricing filters, pages. */
  list: publicProcedure
    .input(
      z.object({
        search: z.string().max(100).optional(),
        category: z.enum(SKILL_CATEGORIES_B).optional(),
        pricingType: z.enum(['free', 'one_time', 'subscription']).optional(),
        sort: z.enum(['reputation', 'newest', 'price']).default('newest'),
        page: z.number().int().min(1).max(10_000).default(1),
        pageSize: z.number().int().min(1).max(100).default(12),
      }),
    )
    .query(async ({ input }) => {
      // Anonymous view: what everyone sees, even when the author is signed in (drafts live on /me).
      const { skills, total, total_exact } = await listSkills({
        q: input.search,
        category: input.category,
        pricingType: input.pricingType,
        status: 'active',
        sort: input.sort,
        limit: input.pageSize,
        offset: (input.page - 1) * input.pageSize,
        viewer: null,
      });
      return { skills, total, total_exact, page: input.page, pageSize: input.pageSize };
    }),
  /** The five example skills (GET /api/skills/examples). */
  examples: publicProcedure.query(() => {
    const { examples } = exampleSkills();
    return examples.map((example) => ({
      id: example.id,
      name: example.name,
      summary: example.summary,
      description: example.description,
      category: example.category,
      integration_type: example.integration_type,
      pricing_type: example.pricing_type,
      price_claw: example.price_claw,
      version: example.version,
      tags: example.tags,
      instructions: example.install.instructions,
    }));
  }),
  /** POST /api/skills/{id}/install: the session's wallet signs `Install skill <id> <unix seconds>`; paid skills charge through the ledger. */
  install: procedureFrom(
    installEndpoint,
    (input: { id: string; message: string; signature: string }, session) => ({
      params: { id: input.id },
      body: { installer_wallet: session.wallet, message: input.message, signature: input.signature },
    }),
    { signedIn: true },
  ),
  /** POST /api/skills (family A): Pro tier or above; the safety scan may keep it in draft. */
  publish: procedureFrom(publishEndpoint, (body: z.input<typeof skillUploadA>) => ({ body })),
});
