import { db } from '../core/db';
import type { SmartMoneyAlert, SmartMoneyEvent } from '../core/db/generated/client';

// Reading smart-money events and alerts (both API families).

export function eventView(event: SmartMoneyEvent) {
  return {
    id: event.id,
    wallet_address: event.walletAddress,
    action: event.action as 'swap' | 'bridge' | 'liquidity_add' | 'liquidity_remove',
    token_in: event.tokenIn,
    token_out: event.tokenOut,
    amount_in_raw: event.amountInRaw,
    amount_out_raw: event.amountOutRaw,
    amount_usd: event.amountUsd,
    usd_method: event.usdMethod as 'stable_pair' | 'eth_usd_config' | 'devnet_reference' | 'none',
    confidence: event.confidence as 'high' | 'medium' | 'low',
    dex: event.dex,
    tx_hash: event.txHash,
    block_number: Number(event.blockNumber),
    timestamp: event.timestamp.toISOString(),
  };
}

export function alertView(alert: SmartMoneyAlert) {
  return {
    id: alert.id,
    type: alert.type as 'large_swap' | 'unusual_volume' | 'new_position' | 'exit',
    wallet_address: alert.walletAddress,
    message: alert.message,
    severity: alert.severity as 'low' | 'medium' | 'high',
    amount_usd: alert.amountUsd,
    action: alert.action,
    created_at: alert.createdAt.toISOString(),
  };
}

export interface EventFilter {
  wallet?: string;
  action?: string;
  confidence?: string;
  since?: Date;
  limit: number;
}

export async function listEvents(filter: EventFilter) {
  const events = await db().smartMoneyEvent.findMany({
    where: {
      ...(filter.wallet ? { walletAddress: filter.wallet } : {}),
      ...(filter.action ? { action: filter.action } : {}),
      ...(filter.confidence ? { confidence: filter.confidence } : {}),
      ...(filter.since ? { timestamp: { gte: filter.since } } : {}),
    },
    orderBy: [{ blockNumber: 'desc' }, { logIndex: 'desc' }],
    take: filter.limit,
  });
  return events.map(eventView);
}

export async function listAlerts(filter: { minUsd?: number; action?: string; limit: number }) {
  const alerts = await db().smartMoneyAlert.findMany({
    where: {
      ...(filter.minUsd !== undefined ? { amountUsd: { gte: filter.minUsd } } : {}),
      ...(filter.action ? { action: filter.action } : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    take: filter.limit,
  });
  return alerts.map(alertView);
}
