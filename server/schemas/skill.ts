import { z } from '@hono/zod-openapi';
import {
  INTEGRATION_TYPES,
  PRICING_TYPES,
  SKILL_CATEGORIES_A,
  SKILL_CATEGORIES_B,
  SKILL_LIST_PRICING,
  SKILL_SORTS,
} from './enums';
import {
  addressOut,
  clawAmount,
  clawOut,
  httpUrl,
  jsonObject,
  listTotalFields,
  queryInt,
  timestamp,
  walletAddress,
} from './common';

// Skills marketplace (spec: Skill resource, skills endpoints of both families).

export { SKILL_CATEGORIES_A, SKILL_CATEGORIES_B, INTEGRATION_TYPES, PRICING_TYPES };

/** Largest integration_payload, serialized (docs/spec-decisions.md, Skills). */
export const MAX_PAYLOAD_BYTES = 32 * 1024;

const text = (max: number) => z.string().trim().min(1).max(max);
const tags = z.array(z.string().trim().min(1).max(40)).max(20);
const payload = jsonObject.refine((value) => JSON.stringify(value).length <= MAX_PAYLOAD_BYTES, {
  message: `must serialize to at most ${MAX_PAYLOAD_BYTES} bytes`,
});

export const skillReview = z
  .strictObject({
    flagged: z.boolean(),
    reasons: z.array(z.string()),
  })
  .openapi('SkillReview', { description: 'The safety scan’s verdict; shown to the author and admins only' });

export const skill = z
  .strictObject({
    id: z.uuid(),
    name: z.string(),
    summary: z.string(),
    description: z.string(),
    category: z.string(),
    tags: z.array(z.string()),
    author_wallet: addressOut,
    author_handle: z.string().nullable(),
    rating: z.number().min(0).max(5),
    install_count: z.number().int(),
    pricing_type: z.enum(PRICING_TYPES),
    price_claw: clawOut,
    repo_url: z.string().nullable(),
    status: z.enum(['active', 'draft']),
    created_at: timestamp,
    integration_type: z.enum(INTEGRATION_TYPES).nullable(),
    version: z.string(),
    integration_payload: jsonObject
      .optional()
      .openapi({ description: 'Shown to the author, admins and installers (install answer)' }),
    review: skillReview.optional(),
  })
  .openapi('Skill');

/** Family A SkillUploadRequest (integration_type and integration_payload are accepted too). */
export const skillUploadA = z
  .object({
    name: text(100),
    description: text(5000),
    category: z.enum(SKILL_CATEGORIES_A),
    tags: tags.optional(),
    pricing_type: z.enum(['free', 'paid', 'subscription']).default('free'),
    price_claw: clawAmount.optional(),
    repo_url: httpUrl.optional(),
    integration_type: z.enum(INTEGRATION_TYPES).optional(),
    integration_payload: payload.optional(),
    version: z.string().trim().min(1).max(32).optional(),
  })
  .openapi('SkillUploadRequest');

export const skillPublishB = z
  .object({
    name: text(100),
    // The spec lists these fields without saying which are required: only name and description are
    // (as in family A); the rest default as a family A upload does (summary empty, no integration).
    summary: text(280).optional(),
    description: text(5000),
    category: z.enum(SKILL_CATEGORIES_B).default('general').openapi({ description: 'Default general' }),
    tags: tags.optional(),
    integration_type: z.enum(INTEGRATION_TYPES).optional(),
    integration_payload: payload.optional(),
    pricing_type: z.enum(['free', 'one_time', 'subscription']).default('free'),
    price_claw: clawAmount.optional(),
    repo_url: httpUrl.optional(),
    version: z.string().trim().min(1).max(32).optional(),
  })
  .openapi('SkillPublishRequest');

export const skillListQueryA = z.object({
  category: z.enum(['all', ...SKILL_CATEGORIES_A]).default('all'),
  status: z.enum(['active', 'draft']).default('active'),
  search: z.string().max(100).optional(),
  limit: queryInt(1, 200, 50),
  offset: queryInt(0, 100_000, 0),
});

export const skillListQueryB = z.object({
  q: z.string().max(100).optional(),
  category: z.enum(SKILL_CATEGORIES_B).optional(),
  pricing_type: z.enum(SKILL_LIST_PRICING).optional(),
  sort: z.enum(SKILL_SORTS).default('newest'),
  limit: queryInt(1, 100, 20),
  offset: queryInt(0, 100_000, 0),
});

export const skillList = z
  .strictObject({ skills: z.array(skill), ...listTotalFields('Skills', 'words, or for drafts') })
  .openapi('SkillList');

export const skillListB = z
  .strictObject({
    skills: z.array(skill),
    ...listTotalFields('Skills', 'words, or for drafts'),
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .openapi('SkillListB');

export const installInfo = z
  .strictObject({
    skill_id: z.uuid(),
    skill_name: z.string(),
    version: z.string(),
    pricing_type: z.enum(PRICING_TYPES),
    installs: z.number().int(),
    price_claw: clawOut,
  })
  .openapi('SkillInstallInfo');

export const installBody = z
  .object({
    installer_wallet: walletAddress,
    message: z.string().min(1).max(500),
    signature: z
      .string()
      .regex(/^0x[0-9a-fA-F]+$/, 'must be a hex signature')
      .max(1000),
  })
  .openapi('SkillInstallRequest');

export const installResult = z
  .strictObject({
    installed: z.literal(true),
    already_installed: z.boolean(),
    charged_claw: clawOut,
    paid_until: timestamp.nullable(),
    skill,
  })
  .openapi('SkillInstallResult');

export const uninstallResult = z
  .strictObject({ uninstalled: z.boolean(), skill_id: z.uuid(), installs: z.number().int() })
  .openapi('SkillUninstallResult');

export const skillRemoved = z
  .strictObject({ removed: z.literal(true), skill_id: z.uuid(), stake_returned_claw: clawOut })
  .openapi('SkillRemoved');

export const exampleSkill = z
  .strictObject({
    id: z.uuid(),
    name: z.string(),
    summary: z.string(),
    description: z.string(),
    category: z.string(),
    integration_type: z.enum(INTEGRATION_TYPES),
    pricing_type: z.enum(PRICING_TYPES),
    price_claw: clawOut,
    version: z.string(),
    tags: z.array(z.string()),
    integration_payload: jsonObject,
    example_request: jsonObject,
    example_response: jsonObject,
    install: z.strictObject({ instructions: z.string(), register_as_skill: jsonObject.optional() }),
  })
  .openapi('ExampleSkill');

export const exampleSkills = z
  .strictObject({
    examples: z.array(exampleSkill),
    count: z.number().int(),
    _meta: z.strictObject({ description: z.string(), register_endpoint: z.string() }),
  })
  .openapi('ExampleSkills');
