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
  /** Self-imposed daily spend limit carried by the credential, in micro-CLAW. */
  maxSpendPerDay: bigint | null;
}

export type AuthMode = Caller['via'];
