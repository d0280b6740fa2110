import type { Address } from 'viem';

/** Who is calling: resolved from a bearer token, an API key or signature headers. */
export interface Caller {
  via: 'bearer' | 'api_key' | 'signature';
  wallet: Address;
  /** The agent the credential acts for, when it exists. */
  agentId: string | null;
  /** The agent_pubkey the credential was issued for (bearer tokens and their API keys). */
  agentPubkey: string | null;
  scopes: readonly string[];
  /** Token or key id (null for signature headers). */
  credentialId: string | null;
  /**
   * The daily spend limit in force, in micro-CLAW: the stricter of the credential's
   * (max_spend_claw_per_day at sign-in) and its agent's (POST or PATCH on the agent); null for none.
   */
  maxSpendPerDay: bigint | null;
}

export type AuthMode = Caller['via'];

/**
 * How an endpoint authenticates: 'none' (public), 'optional' (any credential, may be absent),
 * or the list of accepted credential kinds (at least one required).
 */
export type AuthSpec = 'none' | 'optional' | readonly AuthMode[];
