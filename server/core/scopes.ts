// The scopes of both API families (spec: Authentication). One vocabulary serves both: a token
// carries any mix of them.
export const FAMILY_A_SCOPES = [
  'skills.publish',
  'skills.read',
  'marketplace.read',
  'marketplace.buy',
  'analyzer.use',
  'smart_money.read',
  'smart_money.watch',
  'subscriptions.buy',
  'agents.read',
  'agents.write',
  'webhooks.manage',
  'api_keys.manage',
] as const;

export const FAMILY_B_SCOPES = [
  'marketplace.read',
  'marketplace.write',
  'agents.register',
  'agents.invoke',
  'skills.publish',
  'smart_money.subscribe',
  'webhooks.manage',
  'credits.read',
  'agents.read',
  'agents.write',
  'jobs.read',
  'jobs.write',
] as const;

export const ALL_SCOPES: readonly string[] = [...new Set<string>([...FAMILY_A_SCOPES, ...FAMILY_B_SCOPES])].sort();

/**
 * What a wallet's own signature may grant it: a sign-in (challenge and verify, or the web session) and a
 * key minted with signature headers. Every scope today: none is reserved (admin rights come from
 * ADMIN_WALLETS, not from a scope).
 */
export const WALLET_SCOPES: readonly string[] = ALL_SCOPES;

export type Scope = (typeof FAMILY_A_SCOPES)[number] | (typeof FAMILY_B_SCOPES)[number];

// spec: skills.publish is an alias of marketplace.write
const ALIASES: Record<string, string[]> = {
  'skills.publish': ['marketplace.write'],
  'marketplace.write': ['skills.publish'],
};

/** The scopes granted by a request: deduplicated, aliases expanded, sorted. */
export function normalizeScopes(requested: readonly string[]): string[] {
  const out = new Set<string>();
  for (const scope of requested) {
    out.add(scope);
    for (const alias of ALIASES[scope] ?? []) out.add(alias);
  }
  return [...out].sort();
}

export function isKnownScope(scope: string): boolean {
  return ALL_SCOPES.includes(scope);
}

/** The scopes that only read: what an API key minted without `scopes` gets. */
export const READ_SCOPES: readonly string[] = ALL_SCOPES.filter((scope) => /\.read$/.test(scope));
