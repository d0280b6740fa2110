import { getAddress, keccak256, toHex, type Address } from 'viem';
import { requireAgent } from '../agents/find-agent';
import { database, db } from '../core/db';
import { ApiError } from '../core/errors';
import { microToClaw } from '../core/money';
import { currentRuntime } from '../core/runtime';
import { activeRouterKey } from '../invoke/router-keys';
import { linkOf } from './links';
import { parseRegistryRef, parseTokenId, readIdentity, registryRef, requireChain, reputationAbi } from './registry';

// On-chain feedback as Vouchsafe shows it, the evidence-weighted summary the verifier answers, and
// the signed off-chain feedback file a paying caller gets for an invocation (docs/erc8004.md).

/** Evidence: a paid successful call to the agent, or a completed job between the two wallets. */
const EVIDENCE_SQL = `(EXISTS (SELECT 1 FROM invocations i WHERE i.target_agent_id = a.id AND i.caller_wallet = f.client_address
                        AND i.status = 'success' AND i.fee > 0)
   OR EXISTS (SELECT 1 FROM jobs j JOIN job_bids b ON b.id = j.accepted_bid_id WHERE j.status = 'completed'
                AND ((j.poster_wallet = f.client_address AND b.bidder_wallet = a.owner_wallet)
                  OR (b.bidder_wallet = f.client_address AND j.poster_wallet = a.owner_wallet))))`;

interface FeedbackRow {
  client_address: string;
  feedback_index: string;
  value: string;
  value_decimals: number;
  tag1: string;
  tag2: string;
  endpoint: string;
  feedback_uri: string;
  feedback_hash: string;
  revoked: boolean;
  block_number: string;
  tx_hash: string;
  created_at: Date;
  evidence: boolean;
  reviewer_trust: number | null;
}

async function feedbackRows(chainId: number, registry: string, tokenId: string, agentId: string | null, limit: number) {
  return database().sql.query<FeedbackRow>(
    `SELECT f.client_address, f.feedback_index::text, f.value, f.value_decimals, f.tag1, f.tag2, f.endpoint, f.feedback_uri,
            f.feedback_hash, f.revoked, f.block_number::text, f.tx_hash, f.created_at,
            ${agentId ? EVIDENCE_SQL : 'false'} AS evidence,
            (SELECT s.propagated_trust FROM agents r JOIN agent_stats s ON s.agent_id = r.id WHERE r.owner_wallet = f.client_address
             ORDER BY r.created_at ASC, r.id ASC LIMIT 1) AS reviewer_trust
     FROM erc8004_feedback f ${agentId ? 'JOIN agents a ON a.id = $4' : ''}
     WHERE f.chain_id = $1 AND f.identity_registry = $2 AND f.token_id = $3
     ORDER BY f.block_number DESC, f.client_address, f.feedback_index DESC LIMIT ${Math.floor(limit)}`,
    agentId ? [chainId, registry, tokenId, agentId] : [chainId, registry, tokenId],
  );
}

const rating = (row: Pick<FeedbackRow, 'value' | 'value_decimals'>) => Number(row.value) / 10 ** row.value_decimals;

function view(row: FeedbackRow) {
  return {
    client_address: row.client_address,
    feedback_index: Number(row.feedback_index),
    value: row.value,
    value_decimals: row.value_decimals,
    rating: rating(row),
    tag1: row.tag1,
    tag2: row.tag2,
    endpoint: row.endpoint,
    feedback_uri: row.feedback_uri,
    feedback_hash: row.feedback_hash,
    revoked: row.revoked,
    evidence: row.evidence,
    reviewer_propagated_trust: row.reviewer_trust === null ? null : Number(row.reviewer_trust),
    block_number: Number(row.block_number),
    tx_hash: row.tx_hash,
  };
}

/** Counts: all non-revoked feedback, and what counts (evidence, rating 0-100) weighted by the reviewer's propagated trust. */
function summarize(rows: FeedbackRow[]) {
  const live = rows.filter((row) => !row.revoked);
  const counted = live.filter((row) => row.evidence && rating(row) >= 0 && rating(row) <= 100);
  const mean = (list: FeedbackRow[]) => (list.length ? list.reduce((sum, row) => sum + rating(row), 0) / list.length : null);
  const weight = counted.reduce((sum, row) => sum + Number(row.reviewer_trust ?? 0), 0);
  return {
    count: live.length,
    revoked_count: rows.length - live.length,
    mean_rating: mean(live),
    evidence_count: counted.length,
    evidence_mean_rating: mean(counted),
    weighted_rating:
      weight > 0 ? counted.reduce((sum, row) => sum + rating(row) * Number(row.reviewer_trust ?? 0), 0) / weight : null,
  };
}

/** GET /api/v1/agents/{id}/erc8004/feedback: the linked identity's indexed feedback, newest first. */
export async function agentFeedback(ref: string, limit = 50) {
  const agent = await requireAgent(ref);
  const link = await db().erc8004Link.findUnique({ where: { agentId: agent.id } });
  if (!link) return { erc8004: null, summary: summarize([]), feedback: [] };
  const rows = await feedbackRows(link.chainId, link.registry, link.tokenId, agent.id, 1000);
  return {
    erc8004: { agent_id: link.tokenId, agent_registry: `eip155:${link.chainId}:${link.registry}` },
    summary: summarize(rows),
    feedback: rows.slice(0, limit).map(view),
  };
}

/** GET /api/v1/verify/erc8004/{agentRegistry}/{agentId}: an on-chain identity with Vouchsafe's evidence. */
export async function verifyErc8004(agentRegistry: string, rawId: string) {
  const context = await requireChain();
  const registry = parseRegistryRef(agentRegistry, context);
  const tokenId = parseTokenId(rawId);
  const identity = await readIdentity(context, registry, tokenId);
  const reasons: string[] = [];
  if (!identity) {
    return {
      agent_registry: registryRef(context, registry),
      agent_id: tokenId.toString(),
      exists: false,
      owner: null,
      agent_wallet: null,
      agent_uri: null,
      vouchsafe_agent: null,
      onchain_summary: null,
      feedback: summarize([]),
      reasons: ['no such token in the Identity registry'],
    };
  }
  const link = await db().erc8004Link.findUnique({
    where: { chainId_registry_tokenId: { chainId: context.chainId, registry, tokenId: tokenId.toString() } },
  });
  const agent = link ? await db().agent.findUnique({ where: { id: link.agentId } }) : null;
  let vouchsafeAgent = null;
  if (agent) {
    const [stats] = await database().sql.query<{ propagated_trust: number }>(
      `SELECT propagated_trust FROM agent_stats WHERE agent_id = $1`,
      [agent.id],
    );
    const base = currentRuntime().config.PUBLIC_BASE_URL;
    const expectedUri = `${base}/api/v1/agents/${agent.id}/registration.json`;
    vouchsafeAgent = {
      id: agent.id,
      handle: agent.handle,
      name: agent.name,
      owner_wallet: agent.ownerWallet,
      propagated_trust_score: Number(stats?.propagated_trust ?? 0),
      registration_url: expectedUri,
      agent_uri_points_here: identity.agentUri === expectedUri,
    };
    reasons.push(`linked to Vouchsafe agent @${agent.handle} (${link!.via === 'owner' ? 'owner' : 'agentWallet'} proven)`);
    if (!vouchsafeAgent.agent_uri_points_here) reasons.push('the token’s agentURI is not this agent’s registration file');
  } else reasons.push('not linked to any Vouchsafe agent');
  let onchain: { clients: number; count: number; mean_rating: number | null } | null = null;
  try {
    const clients = (await context.client.readContract({
      address: context.addresses.erc8004ReputationRegistry,
      abi: reputationAbi(),
      functionName: 'getClients',
      args: [tokenId],
    })) as Address[];
    if (clients.length) {
      const [count, value, decimals] = (await context.client.readContract({
        address: context.addresses.erc8004ReputationRegistry,
        abi: reputationAbi(),
        functionName: 'getSummary',
        args: [tokenId, clients, '', ''],
      })) as [bigint, bigint, number];
      onchain = {
        clients: clients.length,
        count: Number(count),
        mean_rating: count > 0n ? Number(value) / 10 ** decimals : null,
      };
    } else onchain = { clients: 0, count: 0, mean_rating: null };
  } catch {
    reasons.push('the Reputation registry could not be read');
  }
  const rows = await feedbackRows(context.chainId, registry, tokenId.toString(), agent?.id ?? null, 1000);
  const feedback = summarize(rows);
  reasons.push(`${feedback.evidence_count} of ${feedback.count} feedback entries come from reviewers with evidence on Vouchsafe`);
  return {
    agent_registry: registryRef(context, registry),
    agent_id: tokenId.toString(),
    exists: true,
    owner: identity.owner,
    agent_wallet: identity.agentWallet,
    agent_uri: identity.agentUri || null,
    vouchsafe_agent: vouchsafeAgent,
    onchain_summary: onchain,
    feedback,
    reasons,
  };
}

const b64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

export interface FeedbackFileQuery {
  value: number;
  value_decimals: number;
  tag1?: string;
  tag2?: string;
}

/**
 * GET /api/v1/invocations/{id}/feedback.json: an ERC-8004 off-chain feedback file for a paid,
 * successful call, signed by the router's key (compact JWS, EdDSA, kid and jku of the router JWKS).
 * Deterministic for the same query (Ed25519 signatures are), so its keccak256 is a stable feedbackHash.
 */
export async function invocationFeedbackFile(invocationId: string, query: FeedbackFileQuery) {
  const invocation = /^[0-9a-f-]{36}$/i.test(invocationId)
    ? await db().invocation.findUnique({ where: { id: invocationId.toLowerCase() } })
    : null;
  if (!invocation) throw ApiError.notFound('Invocation');
  if (invocation.status !== 'success' || invocation.fee <= 0n) {
    throw new ApiError('unprocessable', 'Only a paid, successful call has a feedback file', { status: invocation.status });
  }
  const link = await linkOf(invocation.targetAgentId);
  if (!link) throw new ApiError('unprocessable', 'The called agent is not linked to an ERC-8004 identity');
  const base = currentRuntime().config.PUBLIC_BASE_URL;
  const record = `${base}/api/v1/invocations/${invocation.id}/feedback.json`;
  const chainId = link.agent_registry.split(':')[1]!;
  const file: Record<string, unknown> = {
    agentRegistry: link.agent_registry,
    agentId: BigInt(link.agent_id) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(link.agent_id) : link.agent_id,
    clientAddress: `eip155:${chainId}:${getAddress(invocation.callerWallet)}`,
    createdAt: (invocation.completedAt ?? invocation.createdAt).toISOString(),
    value: query.value,
    valueDecimals: query.value_decimals,
    ...(query.tag1 ? { tag1: query.tag1 } : {}),
    ...(query.tag2 ? { tag2: query.tag2 } : {}),
    endpoint: `${base}/api/v1/agents/${invocation.targetAgentId}/invoke`,
    proofOfPayment: {
      fromAddress: getAddress(invocation.callerWallet),
      toAddress: getAddress(invocation.targetWallet),
      chainId,
      txHash: null,
      paymentRecord: record,
      invocationId: invocation.id,
      amount: microToClaw(invocation.fee).toString(),
      currency: 'CLAW',
    },
  };
  const key = await activeRouterKey(database().sql);
  const header = { alg: 'EdDSA', kid: key.kid, jku: `${base}/api/v1/router/jwks` };
  const signingInput = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(file))}`;
  const signature = `${signingInput}.${b64url(key.sign(Buffer.from(signingInput)))}`;
  const body = { ...file, signature };
  const bytes = JSON.stringify(body);
  return { body, feedbackHash: keccak256(toHex(bytes)), bytes };
}
