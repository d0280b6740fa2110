import { randomUUID } from 'node:crypto';
import { getAddress, parseTransaction, recoverTransactionAddress, type Hex, type TransactionSerialized } from 'viem';
import { chain, rpcError } from '../chain/client';
import type { Caller } from '../core/caller';
import { db } from '../core/db';
import { ApiError } from '../core/errors';

// POST /api/v1/trade/swap: relays a transaction the caller's wallet signed. The service never holds a
// key: it decodes the raw transaction, checks chain id (CHAIN_ID, 8453), sender (the caller's wallet)
// and target (an allowed swap router, SWAP_ROUTER_ALLOWLIST), then eth_sendRawTransaction.

export const explorerTx = (hash: string) => `https://basescan.org/tx/${hash}`;

export async function relaySwap(
  caller: Caller,
  signedTx: Hex,
  details: Record<string, unknown>,
  strategyId: string | null = null,
) {
  const context = await chain();
  let parsed: ReturnType<typeof parseTransaction>;
  let from: string;
  try {
    parsed = parseTransaction(signedTx as TransactionSerialized);
    from = await recoverTransactionAddress({ serializedTransaction: signedTx as TransactionSerialized });
  } catch {
    throw new ApiError('invalid_request', 'signed_tx is not a signed transaction', {
      fields: { signed_tx: 'not a signed transaction' },
    });
  }
  if (!parsed.r || !parsed.s)
    throw new ApiError('invalid_request', 'signed_tx is not signed', { fields: { signed_tx: 'unsigned' } });
  if (parsed.chainId !== context.chainId) {
    throw new ApiError(
      'unprocessable',
      `The transaction is for chain ${parsed.chainId ?? 'none'}; this service relays chain ${context.chainId} only`,
      {
        reason: 'wrong_chain',
        chain_id: parsed.chainId ?? null,
      },
    );
  }
  if (getAddress(from) !== caller.wallet) {
    throw new ApiError('forbidden', 'The transaction is signed by another wallet than yours', {
      reason: 'wrong_sender',
      signer: getAddress(from),
    });
  }
  const to = parsed.to ? getAddress(parsed.to) : null;
  if (!to || !context.addresses.swapRouterAllowlist.includes(to)) {
    throw new ApiError('unprocessable', 'The transaction does not target an allowed swap router', {
      reason: 'router_not_allowed',
      to,
      allowed_routers: context.addresses.swapRouterAllowlist,
    });
  }
  let hash: Hex;
  try {
    hash = await context.client.sendRawTransaction({ serializedTransaction: signedTx as TransactionSerialized });
  } catch (error) {
    const message = (error as Error)?.message ?? '';
    if (/nonce|insufficient funds|already known|underpriced|intrinsic gas|reverted/i.test(message)) {
      throw new ApiError('unprocessable', `The node refused the transaction: ${message.split('\n')[0]}`, {
        reason: 'rejected_by_node',
      });
    }
    throw rpcError(error);
  }
  const id = randomUUID();
  await db().swapExecution.create({
    data: {
      id,
      wallet: caller.wallet,
      agentId: caller.agentId,
      strategyId,
      txHash: hash,
      router: to,
      details: JSON.parse(JSON.stringify(details)),
    },
  });
  return { execution_id: id, tx_hash: hash, status: 'submitted' as const, basescan_url: explorerTx(hash) };
}
