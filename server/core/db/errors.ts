import { Prisma } from './generated/client';

/** True for a unique-constraint violation, optionally on a given column. */
export function isUniqueViolation(error: unknown, column?: string): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== 'P2002') return false;
  if (!column) return true;
  const target = JSON.stringify(error.meta ?? {});
  return target.includes(column);
}
