import { randomUUID } from 'node:crypto';
import { getAddress } from 'viem';
import { agentViewB, type AgentViewB } from '../directory/agent-views';
import { loadOneAgentMetrics } from '../trust/agent-metrics';
import { database, db } from '../core/db';
import { ApiError } from '../core/errors';
import { hashSecret, newAccessToken, newApiKey, TOKEN_TTL_MS } from './credentials';
import { verifyWalletSignature } from '../signatures/verify-signature';
import { WEB_SIGN_IN_PUBKEY } from './web-sign-in';
import { applyTier, bestTier, readTierNow } from '../agents/tiers';
import { issuedChallenges } from './create-challenge';

const refused = () =>
  new ApiError('invalid_signature', 'Challenge is unknown, expired, already used, or the signature does not match');

/**
 * One statement issues the sign-in: it consumes the challenge (only one statement can flip used_at, and
 * only while it is open), and from the consumed row alone mints the token, the wallet's ck_ key for the
 * agent when it has none from a verify yet, copies the challenge's spend policy to both and drops it, and
 * names the agent. Nothing is written unless the challenge was consumed here. A concurrent first sign-in of
 * the same wallet and agent_pubkey through another challenge cannot mint a second key (the partial unique
 * index api_keys_verify_once): the later one issues none and names the earlier one's prefix (keyPrefix).
 * $1 challenge id, $2 now, $3 wallet, $4 token id, $5 token hash, $6 token expiry, $7 key id, $8 key hash,
 * $9 key prefix, $10 key label.
 */
const ISSUE = `
WITH consumed AS (
  UPDATE auth_challenges SET used_at = $2
  WHERE id = $1::uuid AND used_at IS NULL AND expires_at > $2
  RETURNING id, agent_pubkey, scopes, max_spend_per_day
), token AS (
  INSERT INTO access_tokens (id, token_hash, wallet, agent_pubkey, scopes, max_spend_per_day, expires_at, created_at)
  SELECT $4::uuid, $5, $3, agent_pubkey, scopes, max_spend_per_day, $6, $2 FROM consumed
  RETURNING id
), old_key AS (
  SELECT k.prefix FROM api_keys k, consumed c
  WHERE k.wallet = $3 AND k.agent_pubkey = c.agent_pubkey AND k.source = 'verify' LIMIT 1
), new_key AS (
  INSERT INTO api_keys (id, key_hash, prefix, label, wallet, agent_pubkey, scopes, max_spend_per_day, source, created_at)
  SELECT $7::uuid, $8, $9, $10, $3, agent_pubkey, scopes, max_spend_per_day, 'verify', $2 FROM consumed
  WHERE NOT EXISTS (SELECT 1 FROM old_key)
  ON CONFLICT (wallet, agent_pubkey) WHERE source = 'verify' DO NOTHING
  RETURNING id
), policy_copies AS (
  INSERT INTO spend_policies (credential_id, wallet, restrict_payees, allowed_payees, max_per_call, approval_above)
  SELECT credential.id, s.wallet, s.restrict_payees, s.allowed_payees, s.max_per_call, s.approval_above
  FROM spend_policies s JOIN consumed c ON s.credential_id = c.id,
    (SELECT id FROM token UNION ALL SELECT id FROM new_key) AS credential
  ON CONFLICT (credential_id) DO NOTHING
), policy_dropped AS (
  DELETE FROM spend_policies WHERE credential_id IN (SELECT id FROM consumed)
)
SELECT c.agent_pubkey, c.scopes, EXISTS (SELECT 1 FROM new_key) AS key_issued, (SELECT prefix FROM old_key) AS old_key_prefix,
  (SELECT a.id FROM agents a WHERE a.owner_wallet = $3 AND a.agent_pubkey = c.agent_pubkey) AS agent_id,
  ARRAY(SELECT a.tier FROM agents a WHERE a.owner_wallet = $3) AS wallet_tiers
FROM consumed c`;

/** The prefix of the ck_ key issued at sign-in for a wallet and agent_pubkey. */
async function verifyKeyPrefix(wallet: string, agentPubkey: string): Promise<string> {
  const [row] = await database().sql.query<{ prefix: string }>(
    `SELECT prefix FROM api_keys WHERE wallet = $1 AND agent_pubkey = $2 AND source = 'verify'`,
    [wallet, agentPubkey],
  );
  if (!row) throw new Error('no sign-in key after a conflict on api_keys_verify_once');
  return row.prefix;
}

interface Issued {
  agent_pubkey: string;
  scopes: string[];
  key_issued: boolean;
  old_key_prefix: string | null;
  agent_id: string | null;
  /** The tiers the wallet's agents show now. */
  wallet_tiers: string[];
}

/**
 * POST /api/v1/auth/verify: checks the personal_sign signature of a challenge, consumes it and
 * issues a 24-hour bearer token. The permanent ck_ API key is issued with the first successful
 * verify of a wallet and agent_pubkey and shown only then (docs/spec-decisions.md).
 * Two statements: the open challenge's text (none when this process issued it), then (signature checked) ISSUE,
 * which also returns the tiers the wallet's agents show: the chain's reading is stored only where they differ.
 */
export async function verifyChallenge(challengeId: string, signature: string) {
  const sql = database().sql;
  // A web app sign-in challenge (web-sign-in.ts) never yields an API token. One this process issued is not
  // read again (whether it is still open, ISSUE decides).
  const known = issuedChallenges().peek(challengeId);
  const challenge: { wallet: string; agent_pubkey: string; agent_name: string | null; message: string } | undefined =
    known && known.agentPubkey !== WEB_SIGN_IN_PUBKEY && known.expiresAt.getTime() > Date.now()
      ? { wallet: known.wallet, agent_pubkey: known.agentPubkey, agent_name: known.agentName ?? null, message: known.message }
      : known
        ? undefined
        : (
            await sql.query<{ wallet: string; agent_pubkey: string; agent_name: string | null; message: string }>(
              `SELECT wallet, agent_pubkey, agent_name, message FROM auth_challenges
               WHERE id = $1::uuid AND used_at IS NULL AND expires_at > $2 AND agent_pubkey <> $3`,
              [challengeId, new Date(), WEB_SIGN_IN_PUBKEY],
            )
          )[0];
  if (!challenge) throw refused();
  const wallet = getAddress(challenge.wallet);
  if (!(await verifyWalletSignature(wallet, challenge.message, signature))) throw refused();

  const token = newAccessToken();
  const key = newApiKey();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + TOKEN_TTL_MS);
  // Sign-in reads the wallet's holdings afresh, so a new holder sees the tier at once.
  const [reading, [issued]] = await Promise.all([
    readTierNow(wallet),
    sql.query<Issued>(
      ISSUE,
      [
        challengeId,
        now,
        wallet,
        randomUUID(),
        hashSecret(token),
        expiresAt,
        randomUUID(),
        hashSecret(key.key),
        key.prefix,
        `issued at sign-in for ${challenge.agent_name ?? challenge.agent_pubkey}`.slice(0, 100),
      ],
      { prepare: true },
    ),
  ]);
  // Another verify of the same challenge (or its expiry) came first.
  if (!issued) {
    if (reading) void applyTier(wallet, reading).catch(() => undefined);
    throw refused();
  }
  // The reading is stored on the wallet's agents where they show another tier; without one, theirs answers.
  const tier = reading ?? bestTier(issued.wallet_tiers);
  if (reading && issued.wallet_tiers.some((stored) => stored !== reading)) await applyTier(wallet, reading);
  // A concurrent first sign-in minted the key after this statement's snapshot: name its prefix.
  const keyPrefix = issued.key_issued
    ? key.prefix
    : (issued.old_key_prefix ?? (await verifyKeyPrefix(wallet, issued.agent_pubkey)));
  const agent = issued.agent_id ? await db().agent.findUnique({ where: { id: issued.agent_id } }) : null;
  return {
    token,
    token_type: 'Bearer' as const,
    expires_at: expiresAt.toISOString(),
    wallet_address: wallet,
    agent_pubkey: issued.agent_pubkey,
    scopes: issued.scopes,
    agent: agent ? agentViewB(agent, await loadOneAgentMetrics(agent, sql), { viewer: wallet }) : null,
    tier: (agent?.tier ?? tier) as AgentViewB['tier'],
    api_key: issued.key_issued ? key.key : null,
    api_key_prefix: keyPrefix,
  };
}
