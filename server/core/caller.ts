import type { Address } from 'viem';

/** Who is calling: resolved from a bearer token, an API key, signature headers or a signed body. */
export interface Caller {
  via: 'bearer' | 'api_key' | 'signature';
  wallet: Address;
  /** The agent the credential acts for, when it exists. */
  agentId: string | null;
  /** The agent_pubkey the credential was issued for (bearer tokens and their API keys). */
  agentPubkey: string | null;
  scopes: readonly string[];
  /** Token or key id (null for signature headers and signed bodies). */
  credentialId: string | null;
  /**
   * The daily spend limit in force, in micro-CLAW: the stricter of the credential's
   * (max_spend_claw_per_day at sign-in) and its agent's (POST or PATCH on the agent); null for none.
   */
  maxSpendPerDay: bigint | null;
}

/**
 * A way a caller proves itself: a credential in the headers (bearer, api_key, signature headers), a
 * signed body ('signed_body': the wallet the endpoint's `signer` field names signed the body's
 * `message`, sent with its `signature`; the caller is then a 'signature' caller), or a bearer token in
 * the `token` query parameter ('query_token', for EventSource, which cannot set headers).
 */
export type AuthMode = Caller['via'] | 'signed_body' | 'query_token';

/**
 * How an endpoint authenticates: 'none' (public), 'optional' (any header credential, may be absent),
 * or the list of accepted ways (at least one required).
 */
export type AuthSpec = 'none' | 'optional' | readonly AuthMode[];
