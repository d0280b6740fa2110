import type { Address } from 'viem';
import { primaryAgentOf } from '../agents/find-agent';
import { database, db } from '../core/db';
import { SqlParams, type Queryable } from '../core/db/sql-runner';
import { microToClaw } from '../core/money';
import { PLATFORM_FEES, walletAccount } from '../credits/accounts';
import { callerPays } from '../credits/caller-pays';
import { eventCte, wake } from '../events/emit';
import type { Skill } from '../core/db/generated/client';
import { authorHandles, presentSkill, requireSkill } from './skill-views';

/** Platform fee on paid skills, in basis points (docs/spec-decisions.md, Skills). */
export const SKILL_FEE_BPS = 500n;
/** One subscription period. */
export const SUBSCRIPTION_PERIOD_MS = 30 * 24 * 3600 * 1000;

/** GET /api/skills/{id}/install */
export async function installInfo(id: string) {
  const skill = await requireSkill(id);
  return {
    skill_id: skill.id,
    skill_name: skill.name,
    version: skill.version,
    pricing_type: skill.pricingType as 'free',
    installs: skill.installCount,
    price_claw: microToClaw(skill.price),
  };
}

/**
 * One statement's CTEs that (re)activate an install and count it: the count moves exactly when a
 * row goes from absent or inactive to active, so concurrent installs count exactly.
 */
function installCtes(p: SqlParams, skill: Skill, wallet: string, paidUntil: Date | null, guard: string | null): string[] {
  const event = { skill_id: skill.id, skill_name: skill.name, installer_wallet: wallet, pricing_type: skill.pricingType };
  const skillId = p.add(skill.id);
  const installer = p.add(wallet);
  return [
    // The row as the statement found it: a paid renewal of an install that stayed active extends
    // paid_until without counting a new install.
    `skill_prev AS (SELECT active FROM skill_installs WHERE skill_id = ${skillId}::uuid AND installer_wallet = ${installer})`,
    `skill_ins AS (
      INSERT INTO skill_installs (skill_id, installer_wallet, active, paid_until)
      SELECT ${skillId}::uuid, ${installer}, true, ${p.add(paidUntil)}::timestamptz
      ${guard ? `WHERE EXISTS (SELECT 1 FROM ${guard})` : ''}
      ON CONFLICT (skill_id, installer_wallet) DO UPDATE
        SET active = true, uninstalled_at = NULL,
            installed_at = CASE WHEN skill_installs.active THEN skill_installs.installed_at ELSE now() END,
            paid_until = COALESCE(excluded.paid_until, skill_installs.paid_until)
        WHERE skill_installs.active = false OR excluded.paid_until IS NOT NULL
      RETURNING 1)`,
    `skill_counted AS (
      UPDATE skills SET install_count = install_count + 1
      WHERE id = ${skillId}::uuid AND EXISTS (SELECT 1 FROM skill_ins) AND NOT EXISTS (SELECT 1 FROM skill_prev WHERE active)
      RETURNING install_count)`,
    // skill.installed is seen by the skill's author only (spec: "one of your skills was installed").
    eventCte(p, 'installed_event', 'skill.installed', event, 'skill_counted', { audience: [skill.authorWallet] }),
  ];
}

async function runInstall(sql: Queryable, skill: Skill, wallet: string, paidUntil: Date | null): Promise<boolean> {
  const p = new SqlParams();
  const rows = await sql.query<{ n: number }>(
    `WITH ${installCtes(p, skill, wallet, paidUntil, null).join(',\n')} SELECT (SELECT count(*) FROM skill_counted)::int AS n`,
    p.values,
  );
  return Number(rows[0]?.n ?? 0) > 0;
}

export interface InstallInput {
  id: string;
  /** The wallet that signed `<Install|Uninstall> skill <id> <ts>` (the REST door checked it). */
  installerWallet: Address;
}

/**
 * POST /api/skills/{id}/install, signed `Install skill <id> <ts>` by the installer. Idempotent: installing twice
 * changes nothing and charges nothing. one_time/paid skills are paid once per wallet, ever (a
 * re-install after uninstalling is free); subscriptions are paid per 30-day period. The buyer pays
 * the author minus the platform fee through the ledger (402 when the buyer cannot pay).
 */
export async function installSkill(input: InstallInput) {
  const skill = await requireSkill(input.id);
  const wallet = input.installerWallet;
  const { sql } = database();
  const existing = await db().skillInstall.findUnique({
    where: { skillId_installerWallet: { skillId: skill.id, installerWallet: wallet } },
  });
  const now = Date.now();
  let charged = 0n;
  let changed = false;
  let paidUntil: Date | null = existing?.paidUntil ?? null;

  const paid = skill.pricingType !== 'free' && skill.price > 0n && skill.authorWallet !== wallet;
  const subscription = skill.pricingType === 'subscription';
  // A subscription is due whenever its period has ended, installed or not (an install that stays
  // active does not keep the payload free for ever); a one-time purchase only on a first install.
  const needsPayment = paid && (subscription ? !paidUntil || paidUntil.getTime() <= now : !existing?.active);

  if (needsPayment) {
    const key = subscription
      ? `skill-subscription:${skill.id}:${wallet}:${paidUntil?.toISOString() ?? 'first'}`
      : `skill-purchase:${skill.id}:${wallet}`;
    const newPaidUntil = subscription ? new Date(now + SUBSCRIPTION_PERIOD_MS) : null;
    const buyer = await primaryAgentOf(wallet);
    const { applied } = await callerPays(
      {
        caller: { wallet, maxSpendPerDay: buyer?.maxSpendPerDay ?? null },
        amount: skill.price,
        to: {
          shares: [{ account: walletAccount(skill.authorWallet), weight: 1n }],
          fee: { account: PLATFORM_FEES, bps: SKILL_FEE_BPS },
          remainderTo: walletAccount(skill.authorWallet),
        },
        reason: subscription ? 'skill_subscription' : 'skill_purchase',
        payee: { agentId: skill.authorAgentId, wallet: skill.authorWallet },
        ref: { type: 'skill', id: skill.id },
        idempotencyKey: key,
        alongside: (p) => installCtes(p, skill, wallet, newPaidUntil, 'txn'),
      },
      sql,
    );
    if (applied) {
      charged = skill.price;
      changed = true;
      paidUntil = newPaidUntil;
      wake('skill.installed');
    }
  }
  // Free skills, re-installs of something already paid for, and a concurrent buyer that lost the race.
  if (!changed) {
    changed = await runInstall(sql, skill, wallet, null);
    if (changed) wake('skill.installed');
  }
  const fresh = await db().skill.findUniqueOrThrow({ where: { id: skill.id } });
  const handles = await authorHandles([fresh]);
  const row = await db().skillInstall.findUnique({
    where: { skillId_installerWallet: { skillId: skill.id, installerWallet: wallet } },
  });
  return {
    installed: true as const,
    already_installed: !changed,
    charged_claw: microToClaw(charged),
    paid_until: row?.paidUntil?.toISOString() ?? null,
    skill: presentSkill(fresh, fresh.authorAgentId ? (handles.get(fresh.authorAgentId) ?? null) : null, { withPayload: true }),
  };
}

/** DELETE /api/skills/{id}/install, signed `Uninstall skill <id> <ts>`. Uninstalling twice changes nothing. */
export async function uninstallSkill(input: InstallInput) {
  const skill = await requireSkill(input.id);
  const rows = await database().sql.query<{ n: number; installs: number | null }>(
    `WITH gone AS (
       UPDATE skill_installs SET active = false, uninstalled_at = now()
       WHERE skill_id = $1::uuid AND installer_wallet = $2 AND active RETURNING 1),
     counted AS (
       UPDATE skills SET install_count = install_count - 1 WHERE id = $1::uuid AND EXISTS (SELECT 1 FROM gone)
       RETURNING install_count)
     SELECT (SELECT count(*) FROM counted)::int AS n, (SELECT install_count FROM counted) AS installs`,
    [skill.id, input.installerWallet],
  );
  const removed = Number(rows[0]?.n ?? 0) > 0;
  const installs = removed
    ? Number(rows[0]!.installs)
    : (await db().skill.findUniqueOrThrow({ where: { id: skill.id }, select: { installCount: true } })).installCount;
  return { uninstalled: removed, skill_id: skill.id, installs };
}
