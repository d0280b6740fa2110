import { z } from '@hono/zod-openapi';
import { addressOut, queryInt, timestamp, walletAddress } from './common';

// Smart money (spec: SmartMoneyWallet, SmartMoneyEvent, SmartMoneyAlert, Preview event).

const confidence = z.enum(['high', 'medium', 'low']);
const action = z.enum(['swap', 'bridge', 'liquidity_add', 'liquidity_remove']);

export const smartMoneyWallet = z
  .strictObject({
    id: z.uuid(),
    wallet_address: addressOut,
    label: z.string().nullable(),
    win_rate: z.number().min(0).max(1),
    total_volume_usd: z.number(),
    confidence,
    last_active: timestamp.nullable(),
  })
  .openapi('SmartMoneyWallet');

export const smartMoneyEvent = z
  .strictObject({
    id: z.uuid(),
    wallet_address: addressOut,
    action,
    token_in: addressOut.nullable(),
    token_out: addressOut.nullable(),
    amount_in_raw: z.string().nullable(),
    amount_out_raw: z.string().nullable(),
    amount_usd: z.number(),
    usd_method: z.enum(['stable_pair', 'eth_usd_config', 'devnet_reference', 'none']),
    confidence,
    dex: z.string().nullable(),
    tx_hash: z.string(),
    block_number: z.number().int(),
    timestamp,
  })
  .openapi('SmartMoneyEvent');

export const smartMoneyAlert = z
  .strictObject({
    id: z.uuid(),
    type: z.enum(['large_swap', 'unusual_volume', 'new_position', 'exit']),
    wallet_address: addressOut,
    message: z.string(),
    severity: z.enum(['low', 'medium', 'high']),
    amount_usd: z.number(),
    action: z.string(),
    created_at: timestamp,
  })
  .openapi('SmartMoneyAlert');

export const walletsQueryA = z.object({
  search: z.string().max(100).optional(),
  limit: queryInt(1, 200, 50),
});
export const walletsQueryB = z.object({ limit: queryInt(1, 200, 50) });
export const walletList = z.strictObject({ wallets: z.array(smartMoneyWallet) }).openapi('SmartMoneyWalletList');

export const eventsQueryA = z.object({
  wallet: walletAddress.optional(),
  action: action.optional(),
  confidence: confidence.optional(),
  limit: queryInt(1, 200, 50),
});
export const eventsQueryB = z.object({
  wallet: walletAddress.optional(),
  since: z.iso.datetime({ offset: true, message: 'must be an ISO timestamp' }).optional(),
  limit: queryInt(1, 50, 50),
});
export const eventList = z.strictObject({ events: z.array(smartMoneyEvent) }).openapi('SmartMoneyEventList');

export const alertsQueryB = z.object({
  min_usd: z.coerce.number().min(0).default(10_000).openapi({ type: 'number', minimum: 0, default: 10000 }),
  action: action.optional(),
  limit: queryInt(1, 200, 50),
});
export const alertArray = z.array(smartMoneyAlert).openapi('SmartMoneyAlertArray');
export const alertList = z.strictObject({ alerts: z.array(smartMoneyAlert), min_usd: z.number() }).openapi('SmartMoneyAlertList');

export const watchBody = z.object({ wallet_address: walletAddress, label: z.string().trim().min(1).max(100).optional() });
export const watchResult = z
  .strictObject({ watching: z.literal(true), created: z.boolean(), wallet: smartMoneyWallet })
  .openapi('SmartMoneyWatchResult');

export const subscribeBody = z.object({
  plan: z.enum(['monthly', 'quarterly'], { message: 'must be monthly or quarterly' }),
});
export const subscribeResult = z
  .strictObject({
    subscribed: z.literal(true),
    plan: z.enum(['monthly', 'quarterly']),
    expires_at: timestamp,
    claw_deducted: z.number(),
  })
  .openapi('SmartMoneySubscription');

const previewEvent = z.strictObject({
  id: z.string(),
  type: z.enum(['smart_money.swap', 'smart_money.new_position', 'smart_money.exit']),
  wallet_address: addressOut,
  wallet_label: z.string(),
  timestamp,
  data: z.record(z.string(), z.unknown()),
  signal_strength: z.enum(['high', 'medium']),
  _preview: z.literal(true),
});
const webhookPayload = z.strictObject({ event: z.string(), timestamp, data: z.record(z.string(), z.unknown()) });
export const smartMoneyPreview = z
  .strictObject({
    preview: z.literal(true),
    description: z.string(),
    events: z.array(previewEvent),
    event_count: z.number().int(),
    webhook_payloads: z.record(z.string(), webhookPayload),
    upgrade: z.strictObject({ message: z.string(), required_tier: z.literal('entry'), tokens_required: z.number() }),
    _links: z.record(z.string(), z.string()),
  })
  .openapi('SmartMoneyPreview');
