import { z } from 'zod';
import { listSkills } from '../../skills/list-skills';
import { exampleSkills } from '../../skills/example-skills';
import { installSkill } from '../../skills/install-skill';
import { publishSkill } from '../../skills/publish-skill';
import { installBody, SKILL_CATEGORIES_B, skillUploadA } from '../../schemas/skill';
import { publicProcedure, router, sessionCaller, walletProcedure } from '../init';
import { takeRateLimit } from '../rate-limit';

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
      const { skills, total } = await listSkills({
        q: input.search,
        category: input.category,
        pricingType: input.pricingType,
        status: 'active',
        sort: input.sort,
        limit: input.pageSize,
        offset: (input.page - 1) * input.pageSize,
        viewer: null,
      });
      return { skills, total, page: input.page, pageSize: input.pageSize };
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
  /** POST /api/skills/{id}/install: the wallet signs `Install skill <id> <unix seconds>`; paid skills charge through the ledger. */
  install: walletProcedure
    .input(installBody.omit({ installer_wallet: true }).extend({ id: z.uuid() }))
    .mutation(async ({ input, ctx }) => {
      await takeRateLimit('write', ctx);
      const result = await installSkill({
        id: input.id,
        installerWallet: ctx.wallet,
        message: input.message,
        signature: input.signature,
      });
      return {
        installed: result.installed,
        already_installed: result.already_installed,
        charged_claw: result.charged_claw,
        paid_until: result.paid_until,
        skill_id: result.skill.id,
        installs: result.skill.install_count,
        integration_payload: result.skill.integration_payload ?? {},
      };
    }),
  /** POST /api/skills (family A): Pro tier or above; the safety scan may keep it in draft. */
  publish: walletProcedure.input(skillUploadA).mutation(async ({ input, ctx }) => {
    await takeRateLimit('write', ctx);
    return publishSkill(await sessionCaller(ctx.wallet), {
      family: 'a',
      name: input.name,
      description: input.description,
      category: input.category,
      tags: input.tags,
      pricingType: input.pricing_type,
      price: input.price_claw,
      repoUrl: input.repo_url,
      integrationType: input.integration_type,
      integrationPayload: input.integration_payload,
      version: input.version,
    });
  }),
});
