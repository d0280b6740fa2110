import {
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  erc20Abi,
  parseAbi,
  parseEventLogs,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  type Address,
  type Hex,
  type TransactionReceipt,
} from 'viem';
import { chain, chainDeadline, rpcError, type ChainContext } from '../chain/client';
import { tokenDecimals } from '../chain/tokens';
import type { Caller } from '../core/caller';
import { database } from '../core/db';
import { currentRuntime } from '../core/runtime';
import { ApiError } from '../core/errors';
import { MICRO_PER_CLAW, microToClaw } from '../core/money';
import { walletAccount, WORLD_DEPOSITS } from './accounts';
import { balanceOf, transfer } from './ledger';

// POST /api/v1/credits/deposit: 1 CLAW per whole accepted token that the caller's wallet
// transferred to the treasury in one transaction, once the transaction has DEPOSIT_CONFIRMATIONS
// blocks on top of it. A transaction hash is claimable once, ever: the ledger's unique idempotency
// key decides between concurrent claims.

export const depositKey = (chainId: number, txHash: string) => `deposit:${chainId}:${txHash.toLowerCase()}`;

function invalid(reason: string, message: string, details: Record<string, unknown> = {}): ApiError {
  return new ApiError('deposit_invalid', message, { reason, ...details });
}

async function alreadyClaimed(key: string): Promise<boolean> {
  const rows = await database().sql.query('SELECT 1 FROM ledger_transactions WHERE idempotency_key = $1', [key]);
  return rows.length > 0;
}

function claimedError(txHash: string): ApiError {
  return new ApiError('deposit_already_claimed', 'This transaction was already claimed', { tx_hash: txHash });
}

async function receiptOf(context: ChainContext, hash: Hex): Promise<TransactionReceipt> {
  const { client } = context;
  try {
    return await client.getTransactionReceipt({ hash });
  } catch (error) {
    if (!(error instanceof TransactionReceiptNotFoundError)) throw rpcError(error);
  }
  // No receipt: pending in the mempool, or unknown to the node.
  try {
    await client.getTransaction({ hash });
  } catch (error) {
    if (error instanceof TransactionNotFoundError) {
      throw new ApiError('transaction_not_found', 'No transaction with this hash is known on the chain', { tx_hash: hash });
    }
    throw rpcError(error);
  }
  throw new ApiError('deposit_pending', 'The transaction is not mined yet; claim it again once it is confirmed', {
    tx_hash: hash,
    confirmations: 0,
    confirmations_required: context.depositConfirmations,
    confirmations_remaining: context.depositConfirmations,
  });
}

const safeOwnersAbi = parseAbi(['function getOwners() view returns (address[])']);

/**
 * Senders whose transfers to the treasury are never credited, because the tokens never came from
 * outside the platform: the treasury itself, the owners of the treasury when it is a Safe (they can
 * move its tokens), and DEPOSIT_EXCLUDED_SENDERS (the platform's own accounts). Lowercase.
 */
export async function excludedDepositSenders(context: ChainContext, treasury: Address): Promise<Set<string>> {
  const excluded = new Set([treasury, ...currentRuntime().config.DEPOSIT_EXCLUDED_SENDERS].map((a) => a.toLowerCase()));
  let code: Hex | undefined;
  try {
    code = await context.client.getCode({ address: treasury });
  } catch (error) {
    throw rpcError(error);
  }
  if (code && code !== '0x') {
    try {
      const owners = await context.client.readContract({ address: treasury, abi: safeOwnersAbi, functionName: 'getOwners' });
      for (const owner of owners) excluded.add(owner.toLowerCase());
    } catch (error) {
      // A treasury contract without getOwners() is not a Safe; a failing node is a 502.
      const reverted =
        error instanceof BaseError &&
        error.walk((cause) => cause instanceof ContractFunctionRevertedError || cause instanceof ContractFunctionZeroDataError);
      if (!reverted) throw rpcError(error);
    }
  }
  return excluded;
}

export interface DepositResult {
  credited: true;
  amount_claw: number;
  new_balance_claw: number;
  tx_hash: Hex;
  block_number: number;
  transfers: { token: Address; amount_raw: string; log_index: number }[];
}

export async function claimDeposit(caller: Caller, txHash: Hex): Promise<DepositResult> {
  // The chain reads share one deadline (504 past it); the credit itself is one database statement.
  const deadline = chainDeadline();
  const context = await deadline.run(chain());
  const { addresses, client } = context;
  const hash = txHash.toLowerCase() as Hex;
  const key = depositKey(context.chainId, hash);
  if (!addresses.treasury || addresses.acceptedDepositTokens.length === 0) {
    throw new ApiError('chain_unavailable', 'Deposits are not configured (TREASURY_ADDRESS and an accepted token are needed)');
  }
  if (await alreadyClaimed(key)) throw claimedError(hash);

  const receipt = await deadline.run(receiptOf(context, hash));
  if (receipt.status !== 'success') throw invalid('transaction_failed', 'The transaction failed (reverted) on the chain');

  const wallet = caller.wallet.toLowerCase();
  const treasury = addresses.treasury.toLowerCase();
  const accepted = new Set(addresses.acceptedDepositTokens.map((token) => token.toLowerCase()));
  const transfers = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs, strict: true });
  const matching = transfers.filter(
    (log) =>
      accepted.has(log.address.toLowerCase()) && log.args.to.toLowerCase() === treasury && log.args.from.toLowerCase() === wallet,
  );
  if (matching.length === 0) {
    const toTreasury = transfers.filter((log) => log.args.to.toLowerCase() === treasury);
    if (toTreasury.some((log) => accepted.has(log.address.toLowerCase()))) {
      throw new ApiError('deposit_not_yours', 'The transfer to the treasury in this transaction came from another wallet', {
        reason: 'sender_mismatch',
        expected_sender: caller.wallet,
      });
    }
    if (toTreasury.length > 0) {
      throw invalid('token_not_accepted', 'The token transferred to the treasury is not accepted for deposits', {
        accepted_tokens: addresses.acceptedDepositTokens,
      });
    }
    if (transfers.some((log) => accepted.has(log.address.toLowerCase()) && log.args.from.toLowerCase() === wallet)) {
      throw invalid('not_to_treasury', 'The transfer went to another address, not the treasury', {
        treasury: addresses.treasury,
      });
    }
    throw invalid('no_transfer', 'The transaction contains no transfer of an accepted token to the treasury', {
      treasury: addresses.treasury,
    });
  }

  if ((await deadline.run(excludedDepositSenders(context, addresses.treasury))).has(wallet)) {
    throw invalid(
      'excluded_sender',
      'Transfers from the treasury, its owners and the platform’s own accounts are not deposits (no tokens came in)',
    );
  }

  let head: bigint;
  try {
    head = await deadline.run(client.getBlockNumber({ cacheTime: 0 }));
  } catch (error) {
    throw rpcError(error);
  }
  const confirmations = Number(head - receipt.blockNumber);
  if (confirmations < context.depositConfirmations) {
    throw new ApiError('deposit_pending', 'The transaction needs more confirmations before it is credited', {
      tx_hash: hash,
      confirmations,
      confirmations_required: context.depositConfirmations,
      confirmations_remaining: context.depositConfirmations - confirmations,
    });
  }

  let micro = 0n;
  for (const log of matching) {
    const decimals = await tokenDecimals(log.address);
    micro += (log.args.value * MICRO_PER_CLAW) / 10n ** BigInt(decimals);
  }
  if (micro === 0n) throw invalid('amount_too_small', 'The amount is below 0.000001 token, the smallest CLAW unit');

  const { applied } = await transfer(
    WORLD_DEPOSITS,
    walletAccount(caller.wallet),
    micro,
    { reason: 'deposit', refType: 'deposit', refId: hash, idempotencyKey: key },
    database().sql,
  );
  if (!applied) throw claimedError(hash);
  const balance = await balanceOf(walletAccount(caller.wallet), database().sql);
  return {
    credited: true,
    amount_claw: microToClaw(micro),
    new_balance_claw: microToClaw(balance),
    tx_hash: hash,
    block_number: Number(receipt.blockNumber),
    transfers: matching.map((log) => ({ token: log.address, amount_raw: log.args.value.toString(), log_index: log.logIndex })),
  };
}
