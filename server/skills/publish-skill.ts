import { randomUUID } from 'node:crypto';
import { primaryAgentOf } from '../agents/find-agent';
import { tierAtLeast, tierOfWallet } from '../agents/tiers';
import type { Caller } from '../core/caller';
import { database, db } from '../core/db';
import { SqlParams } from '../core/db/sql-runner';
import { ApiError } from '../core/errors';
import { MICRO_PER_CLAW, microToClaw } from '../core/money';
import { holdAccount } from '../credits/accounts';
import { callerPays } from '../credits/caller-pays';
import { eventCte, wake } from '../events/emit';
import { EXAMPLE_SKILL_NAMES } from './example-skills';
import { scanSkill } from './scan-skill';
import { presentSkill } from './skill-views';

/** spec Limits: publishing in family B holds 1,000,000 CLAW, returned when the skill is removed. */
export const PUBLISH_STAKE = 1_000_000n * MICRO_PER_CLAW;

export interface PublishInput {
  family: 'a' | 'b';
  name: string;
  summary?: string;
  description: string;
  category: string;
  tags?: string[];
  pricingType: string;
  price?: bigint;
  repoUrl?: string;
  integrationType?: string;
  integrationPayload?: Record<string, unknown>;
  version?: string;
}

/** A publish request's body, as both families name its fields. */
export interface PublishBody {
  name: string;
  summary?: string;
  description: string;
  category: string;
  tags?: string[];
  pricing_type: string;
  price_claw?: bigint;
  repo_url?: string;
  integration_type?: string;
  integration_payload?: Record<string, unknown>;
  version?: string;
}

/** The service's input from a publish request's body (one mapping for both families' routes). */
export function publishInput(family: 'a' | 'b', body: PublishBody): PublishInput {
  return {
    family,
    name: body.name,
    summary: body.summary,
    description: body.description,
    category: body.category,
    tags: body.tags,
    pricingType: body.pricing_type,
    price: body.price_claw,
    repoUrl: body.repo_url,
    integrationType: body.integration_type,
    integrationPayload: body.integration_payload,
    version: body.version,
  };
}

function checkPricing(input: PublishInput): bigint {
  const price = input.price ?? 0n;
  if (input.pricingType === 'free' && price > 0n) {
    throw new ApiError('invalid_request', 'A free skill has no price', { fields: { price_claw: 'must be 0 for a free skill' } });
  }
  if (input.pricingType !== 'free' && price <= 0n) {
    throw new ApiError('invalid_request', 'A paid or subscription skill needs a price', {
      fields: { price_claw: 'must be above 0 unless pricing_type is free' },
    });
  }
  return price;
}

/**
 * Publishes a skill. Family A needs the pro tier (403); family B holds the publishing stake
 * (402 when the publisher cannot pay). The safety scan decides active or draft; skill.published
 * is emitted, in the same statement, only for a skill that goes active.
 */
export async function publishSkill(caller: Caller, input: PublishInput) {
  const price = checkPricing(input);
  const agent = caller.agentId
    ? await db().agent.findUnique({ where: { id: caller.agentId } })
    : await primaryAgentOf(caller.wallet);
  if (input.family === 'a') {
    const tier = await tierOfWallet(caller.wallet);
    if (!tierAtLeast(tier, 'pro')) {
      throw new ApiError('tier_required', 'Uploading a skill requires the Pro tier or above', { required_tier: 'pro', tier });
    }
  }
  const others = await db().skill.findMany({
    where: { status: 'active', removedAt: null, NOT: { authorWallet: caller.wallet } },
    select: { name: true },
    take: 5000,
    orderBy: { installCount: 'desc' },
  });
  const reasons = scanSkill({
    name: input.name,
    description: input.description,
    summary: input.summary ?? '',
    repoUrl: input.repoUrl ?? null,
    integrationPayload: input.integrationPayload ?? {},
    existingNames: [...EXAMPLE_SKILL_NAMES, ...others.map((other) => other.name)],
  });
  const status = reasons.length > 0 ? 'draft' : 'active';
  const id = randomUUID();
  const stake = input.family === 'b' ? PUBLISH_STAKE : 0n;

  const insert = (p: SqlParams) =>
    `INSERT INTO skills (id, author_agent_id, author_wallet, name, summary, description, category, tags, pricing_type, price,
       repo_url, status, integration_type, integration_payload, version, stake, family, flag_reasons)
     VALUES (${p.add(id)}::uuid, ${p.add(agent?.id ?? null)}::uuid, ${p.add(caller.wallet)}, ${p.add(input.name)}, ${p.add(input.summary ?? '')},
       ${p.add(input.description)}, ${p.add(input.category)}, ${p.add(input.tags?.map((tag) => tag.toLowerCase()) ?? [])}::text[],
       ${p.add(input.pricingType)}, ${p.add(price.toString())}::bigint, ${p.add(input.repoUrl ?? null)}, ${p.add(status)},
       ${p.add(input.integrationType ?? null)}, ${p.add(JSON.stringify(input.integrationPayload ?? {}))}::jsonb,
       ${p.add(input.version ?? '1.0.0')}, ${p.add(stake.toString())}::bigint, ${p.add(input.family)}, ${p.add(reasons)}::text[])
     RETURNING id`;
  const event = {
    skill_id: id,
    name: input.name,
    category: input.category,
    pricing_type: input.pricingType,
    price_claw: microToClaw(price),
    author_wallet: caller.wallet,
    author_handle: agent?.handle ?? null,
  };
  const ctes = (p: SqlParams) => [
    `skill AS (${insert(p)})`,
    ...(status === 'active' ? [eventCte(p, 'published', 'skill.published', event, 'skill')] : []),
  ];
  const { sql } = database();
  // The stake is held, not spent: it does not count against the daily limit.
  await callerPays(
    {
      caller,
      amount: stake,
      to: holdAccount('skill_stake', id),
      reason: 'skill_publish_stake',
      ref: { type: 'skill', id },
      countsTowardDailyLimit: false,
      alongside: ctes,
    },
    sql,
  );
  if (status === 'active') wake('skill.published');
  const created = await db().skill.findUniqueOrThrow({ where: { id } });
  return presentSkill(created, agent?.handle ?? null, { viewer: caller.wallet });
}
