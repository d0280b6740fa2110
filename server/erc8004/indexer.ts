import { getAddress, parseAbiItem, type Address, type Log } from 'viem';
import { chainIfEnabled, rpcError, type ChainContext } from '../chain/client';
import { database, db } from '../core/db';
import { deriveEdgesInto, deriveTrustEdges } from '../trust/derive-edges';
import { readIdentity } from './registry';

// The erc8004 indexer (scheduled, docs/erc8004.md): block range by block range over the configured
// registries, for linked identities only. A Transfer of a linked identity NFT re-checks the link at
// the head and drops it when the owner wallet neither owns the token nor is its agentWallet any
// more; NewFeedback and FeedbackRevoked go into erc8004_feedback, and the edges into the agents
// whose feedback changed are re-derived (feedback with evidence counts as trust, derive-edges.ts).

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)');
const NEW_FEEDBACK = parseAbiItem(
  'event NewFeedback(uint256 indexed agentId, address indexed clientAddress, uint64 feedbackIndex, int128 value, uint8 valueDecimals, string indexed indexedTag1, string tag1, string tag2, string endpoint, string feedbackURI, bytes32 feedbackHash)',
);
const FEEDBACK_REVOKED = parseAbiItem(
  'event FeedbackRevoked(uint256 indexed agentId, address indexed clientAddress, uint64 indexed feedbackIndex)',
);

export const ERC8004_INDEXER = {
  maxRange: 2000n,
  /** A fresh cursor on a configured node starts this many blocks back (the devnet from block 0). */
  startBack: 1000n,
  tokensPerQuery: 100,
} as const;

type Args<T> = Log & { args: T };

/** One tick; returns how many links and feedback rows changed. */
export async function indexErc8004(): Promise<number> {
  const context = await chainIfEnabled().catch(() => null);
  if (!context) return 0;
  return indexErc8004On(context);
}

export async function indexErc8004On(context: ChainContext): Promise<number> {
  const { client, chainId } = context;
  const identity = context.addresses.erc8004IdentityRegistry;
  const reputation = context.addresses.erc8004ReputationRegistry;
  const cursorId = `${chainId}:${identity}`;
  let head: bigint;
  try {
    head = await client.getBlockNumber({ cacheTime: 0 });
  } catch (error) {
    throw rpcError(error);
  }
  const cursor = await db().erc8004Cursor.findUnique({ where: { id: cursorId } });
  const fresh = context.source === 'devnet' ? 0n : head > ERC8004_INDEXER.startBack ? head - ERC8004_INDEXER.startBack : 0n;
  const from = cursor ? cursor.lastBlock + 1n : fresh;
  if (from > head) return 0;
  const to = from + ERC8004_INDEXER.maxRange - 1n < head ? from + ERC8004_INDEXER.maxRange - 1n : head;
  const links = await db().erc8004Link.findMany({ where: { chainId, registry: identity } });
  let changed = 0;
  // Agents whose every edge is recomputed (a link dropped: all their feedback stops counting), and the pairs of
  // agent and reviewer whose one trust edge is (a feedback written or revoked).
  const touched = new Set<string>();
  const reviewed = new Map<string, Set<string>>();
  const review = (agentId: string, client: string) => {
    const clients = reviewed.get(agentId) ?? new Set<string>();
    reviewed.set(agentId, clients.add(client));
  };
  for (let i = 0; i < links.length; i += ERC8004_INDEXER.tokensPerQuery) {
    const chunk = links.slice(i, i + ERC8004_INDEXER.tokensPerQuery);
    const ids = chunk.map((link) => BigInt(link.tokenId));
    const byToken = new Map(chunk.map((link) => [link.tokenId, link]));
    const range = { fromBlock: from, toBlock: to };
    const [transfers, feedback, revoked] = await Promise.all([
      client.getLogs({ address: identity, event: TRANSFER, args: { tokenId: ids }, ...range }),
      client.getLogs({ address: reputation, event: NEW_FEEDBACK, args: { agentId: ids }, ...range }),
      client.getLogs({ address: reputation, event: FEEDBACK_REVOKED, args: { agentId: ids }, ...range }),
    ]).catch((error) => {
      throw rpcError(error);
    });
    // A transferred identity: keep the link only if the chain still shows the owner wallet.
    for (const tokenId of new Set((transfers as Args<{ tokenId: bigint }>[]).map((log) => log.args.tokenId.toString()))) {
      const link = byToken.get(tokenId)!;
      const now = await readIdentity(context, identity, BigInt(tokenId));
      if (now && (now.owner === link.verifiedWallet || now.agentWallet === link.verifiedWallet)) continue;
      const { count } = await db().erc8004Link.deleteMany({ where: { agentId: link.agentId, tokenId } });
      changed += count;
      touched.add(link.agentId);
    }
    type Feedback = {
      agentId: bigint;
      clientAddress: Address;
      feedbackIndex: bigint;
      value: bigint;
      valueDecimals: number;
      tag1: string;
      tag2: string;
      endpoint: string;
      feedbackURI: string;
      feedbackHash: string;
    };
    const rows = (feedback as unknown as Args<Feedback>[]).map((log) => ({
      chainId,
      identityRegistry: identity,
      tokenId: log.args.agentId.toString(),
      clientAddress: getAddress(log.args.clientAddress),
      feedbackIndex: log.args.feedbackIndex,
      value: log.args.value.toString(),
      valueDecimals: Number(log.args.valueDecimals),
      tag1: log.args.tag1,
      tag2: log.args.tag2,
      endpoint: log.args.endpoint,
      feedbackUri: log.args.feedbackURI,
      feedbackHash: log.args.feedbackHash,
      blockNumber: log.blockNumber!,
      txHash: log.transactionHash!,
    }));
    if (rows.length) {
      const { count } = await db().erc8004Feedback.createMany({ data: rows, skipDuplicates: true });
      changed += count;
      for (const row of rows) {
        const link = byToken.get(row.tokenId);
        if (link) review(link.agentId, row.clientAddress);
      }
    }
    for (const log of revoked as unknown as Args<{ agentId: bigint; clientAddress: Address; feedbackIndex: bigint }>[]) {
      const { count } = await db().erc8004Feedback.updateMany({
        where: {
          chainId,
          identityRegistry: identity,
          tokenId: log.args.agentId.toString(),
          clientAddress: getAddress(log.args.clientAddress),
          feedbackIndex: log.args.feedbackIndex,
        },
        data: { revoked: true },
      });
      changed += count;
      const link = byToken.get(log.args.agentId.toString());
      if (link) review(link.agentId, getAddress(log.args.clientAddress));
    }
  }
  for (const agentId of touched) await deriveEdgesInto(agentId, database().sql);
  for (const [agentId, clients] of reviewed) {
    if (touched.has(agentId)) continue;
    await deriveTrustEdges(agentId, [...clients], database().sql);
  }
  await db().erc8004Cursor.upsert({
    where: { id: cursorId },
    create: { id: cursorId, lastBlock: to },
    update: { lastBlock: to },
  });
  return changed;
}
