import type { Address } from 'viem';
import { db } from '../core/db';
import type { Prisma } from '../core/db/generated/client';

export interface AuditEntry {
  adminWallet: Address;
  action: string;
  targetType: string;
  targetId: string;
  details?: Record<string, unknown>;
}

type Runner = Pick<Prisma.TransactionClient, 'adminAuditLog'>;

/** Appends one admin action (who, what, on which object) inside the caller's transaction. */
export async function recordAdminAction(entry: AuditEntry, runner: Runner): Promise<void> {
  await runner.adminAuditLog.create({
    data: {
      adminWallet: entry.adminWallet,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      details: (entry.details ?? {}) as Prisma.InputJsonValue,
    },
  });
}

/** The audit log, newest first, paged by id (`before` = the last id of the previous page). */
export async function listAdminActions(input: { limit: number; before?: string }) {
  const rows = await db().adminAuditLog.findMany({
    where: input.before ? { id: { lt: BigInt(input.before) } } : {},
    orderBy: { id: 'desc' },
    take: input.limit,
  });
  return rows.map((row) => ({
    id: row.id.toString(),
    admin_wallet: row.adminWallet,
    action: row.action,
    target_type: row.targetType,
    target_id: row.targetId,
    details: row.details as Record<string, unknown>,
    created_at: row.createdAt.toISOString(),
  }));
}
