import { randomBytes, randomUUID } from 'node:crypto';
import type { Address } from 'viem';
import { createSiweMessage } from 'viem/siwe';
import { database } from '../core/db';
import { ASYNC_COMMIT } from '../core/db/async-commit';
import { microToClaw } from '../core/money';
import { writeSpendPolicy, type SpendPolicyInput } from '../credits/spend-policy';
import { currentRuntime } from '../core/runtime';
import { normalizeScopes, WALLET_SCOPES } from '../core/scopes';
import { sharedCache } from '../core/shared-state';

export const CHALLENGE_TTL_MS = 10 * 60 * 1000;

/**
 * The challenges this process issued, as stored (a challenge never changes once stored; only its used_at,
 * which verify's own statement checks): verify on the instance that issued it reads no row before checking
 * the signature. Another instance, or one past maxEntries, reads it from the database.
 */
export const issuedChallenges = sharedCache<StoredChallenge & { id: string }>('auth.issued-challenges', {
  ttlMs: CHALLENGE_TTL_MS,
  maxEntries: 20_000,
  dropOn: [],
});

export interface ChallengeInput {
  ownerWallet: Address;
  agentPubkey: string;
  agentName?: string;
  requestedScopes?: string[];
  maxSpendPerDay?: bigint;
  /** The spend policy of the credentials this sign-in issues (kept under the challenge's id until verify). */
  spendPolicy?: SpendPolicyInput;
}

/** The policy in words, for the signed statement (the wallet sees what it signs). */
function policyText(policy: SpendPolicyInput | undefined): string {
  if (!policy) return '';
  const parts: string[] = [];
  if (policy.allowed_payees) parts.push(`payees ${policy.allowed_payees.join(' ') || 'none'}`);
  if (policy.max_claw_per_call != null) parts.push(`at most ${microToClaw(policy.max_claw_per_call)} CLAW per call`);
  if (policy.approval_above_claw != null) parts.push(`approval above ${microToClaw(policy.approval_above_claw)} CLAW`);
  return parts.length ? ` Spend policy: ${parts.join(', ')}.` : '';
}

/**
 * A Sign-In with Ethereum (EIP-4361) message bound to this deployment's domain, the wallet and the
 * chain, with a 128-bit nonce, valid 10 minutes (the API's sign-in and the web app's).
 */
export function siweChallenge(wallet: Address, statement: string, resourcePath?: string) {
  const { config } = currentRuntime();
  const base = new URL(config.PUBLIC_BASE_URL);
  const issuedAt = new Date();
  const expiresAt = new Date(issuedAt.getTime() + CHALLENGE_TTL_MS);
  const message = createSiweMessage({
    domain: base.host,
    address: wallet,
    statement,
    uri: base.origin,
    version: '1',
    chainId: config.CHAIN_ID,
    nonce: randomBytes(16).toString('hex'),
    issuedAt,
    expirationTime: expiresAt,
    ...(resourcePath ? { resources: [`${base.origin}${resourcePath}`] } : {}),
  });
  return { message, expiresAt };
}

export interface StoredChallenge {
  wallet: Address;
  agentPubkey: string;
  agentName?: string | null;
  scopes: string[];
  maxSpendPerDay?: bigint | null;
  message: string;
  expiresAt: Date;
}

/**
 * Saves a challenge (API or web sign-in) in one statement; returns its id. Committed asynchronously
 * (core/db/async-commit.ts): a challenge a database crash forgets is refused at verify, and the wallet asks for another.
 */
export async function storeChallenge(challenge: StoredChallenge): Promise<string> {
  const id = randomUUID();
  await database().sql.query(
    `INSERT INTO auth_challenges (id, wallet, agent_pubkey, agent_name, scopes, max_spend_per_day, message, expires_at, created_at)
     VALUES ($1::uuid, $2, $3, $4, $5::text[], $6::bigint, $7, $8, $9) RETURNING ${ASYNC_COMMIT} AS async_commit`,
    [
      id,
      challenge.wallet,
      challenge.agentPubkey,
      challenge.agentName ?? null,
      challenge.scopes,
      challenge.maxSpendPerDay?.toString() ?? null,
      challenge.message,
      challenge.expiresAt,
      new Date(),
    ],
    { prepare: true },
  );
  issuedChallenges().get(id, () => Promise.resolve({ ...challenge, id }));
  return id;
}

/** POST /api/v1/auth/challenge: a SIWE challenge naming the agent and the scopes it grants; accepted once. */
export async function createChallenge(input: ChallengeInput) {
  // Without requested_scopes the token gets every scope: the wallet owner is signing.
  const scopes = normalizeScopes(input.requestedScopes ?? WALLET_SCOPES);
  const { message, expiresAt } = siweChallenge(
    input.ownerWallet,
    // User text is quoted (JSON string syntax) so that it cannot pose as part of the statement; the
    // request schema already refused line breaks and control characters in it.
    `Sign in to Vouchsafe as agent ${JSON.stringify(input.agentName ?? input.agentPubkey)}. Scopes: ${scopes.join(' ') || 'none'}.${policyText(input.spendPolicy)}`,
    `/agents/${encodeURIComponent(input.agentPubkey)}`,
  );
  const id = await storeChallenge({
    wallet: input.ownerWallet,
    agentPubkey: input.agentPubkey,
    agentName: input.agentName,
    scopes,
    maxSpendPerDay: input.maxSpendPerDay,
    message,
    expiresAt,
  });
  if (input.spendPolicy) await writeSpendPolicy(id, input.ownerWallet, input.spendPolicy, database().sql);
  return { challenge: message, challenge_id: id, expires_at: expiresAt.toISOString() };
}
