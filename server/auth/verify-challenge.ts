import { getAddress } from 'viem';
import { agentViewB, type AgentViewB } from '../directory/agent-views';
import { loadOneAgentMetrics } from '../trust/agent-metrics';
import { database, db, withTransaction } from '../core/db';
import { ApiError } from '../core/errors';
import { hashSecret, newAccessToken, newApiKey, TOKEN_TTL_MS } from './credentials';
import { verifyWalletSignature } from '../signatures/verify-signature';
import { WEB_SIGN_IN_PUBKEY } from './web-sign-in';
import { refreshTier } from '../agents/tiers';

const refused = () =>
  new ApiError('invalid_signature', 'Challenge is unknown, expired, already used, or the signature does not match');

/**
 * POST /api/v1/auth/verify: checks the personal_sign signature of a challenge, consumes it and
 * issues a 24-hour bearer token. The permanent ck_ API key is issued with the first successful
 * verify of a wallet and agent_pubkey and shown only then (docs/spec-decisions.md).
 */
export async function verifyChallenge(challengeId: string, signature: string) {
  const challenge = await db().authChallenge.findUnique({ where: { id: challengeId } });
  // A web app sign-in challenge (web-sign-in.ts) never yields an API token.
  if (!challenge || challenge.agentPubkey === WEB_SIGN_IN_PUBKEY || challenge.usedAt || challenge.expiresAt <= new Date())
    throw refused();
  const wallet = getAddress(challenge.wallet);
  if (!(await verifyWalletSignature(wallet, challenge.message, signature))) throw refused();

  const token = newAccessToken();
  const expiresAt = new Date(Date.now() + TOKEN_TTL_MS);
  const issued = await withTransaction(async (tx) => {
    // Single use under concurrency: only one verify can flip used_at.
    const consumed = await tx.prisma.authChallenge.updateMany({
      where: { id: challenge.id, usedAt: null, expiresAt: { gt: new Date() } },
      data: { usedAt: new Date() },
    });
    if (consumed.count !== 1) throw refused();
    const runner = tx.sql;
    const accessToken = await tx.prisma.accessToken.create({
      data: {
        tokenHash: hashSecret(token),
        wallet,
        agentPubkey: challenge.agentPubkey,
        scopes: challenge.scopes,
        maxSpendPerDay: challenge.maxSpendPerDay,
        expiresAt,
      },
    });
    const hasKey = await tx.prisma.apiKey.findFirst({
      where: { wallet, agentPubkey: challenge.agentPubkey, source: 'verify' },
      select: { id: true, prefix: true },
    });
    // The spend policy named in the signed challenge (create-challenge.ts) binds the token (and a new key):
    // copied to each and dropped from the challenge in one statement.
    const bindPolicy = (credentials: string[]) =>
      runner.query(
        `WITH copied AS (
           INSERT INTO spend_policies (credential_id, wallet, restrict_payees, allowed_payees, max_per_call, approval_above)
           SELECT c.id, s.wallet, s.restrict_payees, s.allowed_payees, s.max_per_call, s.approval_above
           FROM spend_policies s, unnest($2::uuid[]) AS c(id) WHERE s.credential_id = $1::uuid
           ON CONFLICT (credential_id) DO NOTHING RETURNING 1)
         DELETE FROM spend_policies WHERE credential_id = $1::uuid`,
        [challenge.id, credentials],
      );
    if (hasKey) {
      await bindPolicy([accessToken.id]);
      return { apiKey: null, apiKeyPrefix: hasKey.prefix };
    }
    const key = newApiKey();
    const apiKey = await tx.prisma.apiKey.create({
      data: {
        keyHash: hashSecret(key.key),
        prefix: key.prefix,
        label: `issued at sign-in for ${challenge.agentName ?? challenge.agentPubkey}`.slice(0, 100),
        wallet,
        agentPubkey: challenge.agentPubkey,
        scopes: challenge.scopes,
        maxSpendPerDay: challenge.maxSpendPerDay,
        source: 'verify',
      },
    });
    await bindPolicy([accessToken.id, apiKey.id]);
    return { apiKey: key.key, apiKeyPrefix: key.prefix };
  });

  // Sign-in reads the wallet's holdings afresh, so a new holder sees the tier at once.
  const [tier, agent] = await Promise.all([
    refreshTier(wallet),
    db().agent.findUnique({
      where: { ownerWallet_agentPubkey: { ownerWallet: wallet, agentPubkey: challenge.agentPubkey } },
    }),
  ]);
  return {
    token,
    token_type: 'Bearer' as const,
    expires_at: expiresAt.toISOString(),
    wallet_address: wallet,
    agent_pubkey: challenge.agentPubkey,
    scopes: challenge.scopes,
    agent: agent ? agentViewB(agent, await loadOneAgentMetrics(agent, database().sql), { viewer: wallet }) : null,
    tier: (agent?.tier ?? tier) as AgentViewB['tier'],
    api_key: issued.apiKey,
    api_key_prefix: issued.apiKeyPrefix,
  };
}
