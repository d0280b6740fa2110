import { randomBytes } from 'node:crypto';
import type { Prisma } from '../core/db/generated/client';

export const HANDLE_PATTERN = /^[a-z0-9-]{3,30}$/;

/** A handle from a display name: lowercase letters, digits and hyphens, 3-30 characters. */
export function handleBase(name: string): string {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 23)
    .replace(/-+$/g, '');
  return slug.length >= 3 ? slug : `agent${slug ? `-${slug}` : ''}`;
}

/** A free handle derived from the name: the slug itself, else the slug with a random suffix. */
export async function generateHandle(name: string, client: Pick<Prisma.TransactionClient, 'agent'>): Promise<string> {
  const base = handleBase(name);
  const candidates = [base, ...Array.from({ length: 5 }, () => `${base}-${randomBytes(3).toString('hex')}`)];
  const taken = new Set(
    (await client.agent.findMany({ where: { handle: { in: candidates } }, select: { handle: true } })).map((a) => a.handle),
  );
  const free = candidates.find((candidate) => !taken.has(candidate));
  return free ?? `${base}-${randomBytes(4).toString('hex')}`;
}
