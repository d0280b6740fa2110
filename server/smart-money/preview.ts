import { currentRuntime } from '../core/runtime';

// GET /api/smart-money/preview (public): sample events marked _preview: true, the webhook payload of
// each smart-money event type, and how to get live data. The samples are fixed illustrations, not
// live data (docs/spec-decisions.md, Smart money).

const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();

export function smartMoneyPreview() {
  const base = currentRuntime().config.PUBLIC_BASE_URL;
  const events = [
    {
      id: 'preview_swap_1',
      type: 'smart_money.swap' as const,
      wallet_address: '0x1111111111111111111111111111111111111111',
      wallet_label: 'Example fund',
      timestamp: at(12),
      data: {
        token_in: { symbol: 'WETH', amount: '25.0', address: '0x4200000000000000000000000000000000000006' },
        token_out: { symbol: 'USDC', amount: '75000.0', address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bda02913' },
        dex: 'uniswap_v3',
        tx_hash: `0x${'a'.repeat(64)}`,
        value_usd: 75000,
        price_impact: 0.12,
      },
      signal_strength: 'high' as const,
      _preview: true as const,
    },
    {
      id: 'preview_position_1',
      type: 'smart_money.new_position' as const,
      wallet_address: '0x2222222222222222222222222222222222222222',
      wallet_label: 'Example trader',
      timestamp: at(45),
      data: {
        token: { symbol: 'EXMPL', address: '0x3333333333333333333333333333333333333333' },
        position_size_usd: 18000,
        entry_price: 0.0042,
        platform: 'uniswap_v2',
        tx_hash: `0x${'b'.repeat(64)}`,
      },
      signal_strength: 'medium' as const,
      _preview: true as const,
    },
    {
      id: 'preview_exit_1',
      type: 'smart_money.exit' as const,
      wallet_address: '0x2222222222222222222222222222222222222222',
      wallet_label: 'Example trader',
      timestamp: at(90),
      data: {
        token: { symbol: 'EXMPL', address: '0x3333333333333333333333333333333333333333' },
        amount_sold: '4285714.0',
        realized_pnl_usd: 3400,
        exit_price: 0.005,
        holding_period_days: 6,
        tx_hash: `0x${'c'.repeat(64)}`,
      },
      signal_strength: 'medium' as const,
      _preview: true as const,
    },
  ];
  const payload = (event: string, data: Record<string, unknown>) => ({ event, timestamp: at(0), data });
  return {
    preview: true as const,
    description:
      'Sample smart-money events (fixed illustrations, not live data). Live events, wallets and alerts need the entry tier (1,000,000 platform tokens) or a smart-money subscription.',
    events,
    event_count: events.length,
    webhook_payloads: {
      'smart_money.swap': payload('smart_money.swap', { ...events[0]!.data, wallet_address: events[0]!.wallet_address }),
      'smart_money.new_position': payload('smart_money.new_position', {
        ...events[1]!.data,
        wallet_address: events[1]!.wallet_address,
      }),
      'smart_money.exit': payload('smart_money.exit', { ...events[2]!.data, wallet_address: events[2]!.wallet_address }),
      'smart_money.alert': payload('smart_money.alert', {
        id: '00000000-0000-4000-8000-000000000001',
        type: 'large_swap',
        wallet_address: events[0]!.wallet_address,
        message: 'Example fund swapped 25.0 WETH for 75000.0 USDC (~$75,000)',
        severity: 'medium',
        created_at: at(12),
      }),
      'smart_money.large_swap': payload('smart_money.large_swap', {
        id: '00000000-0000-4000-8000-000000000001',
        type: 'large_swap',
        wallet_address: events[0]!.wallet_address,
        message: 'Example fund swapped 25.0 WETH for 75000.0 USDC (~$75,000)',
        severity: 'medium',
        amount_usd: 75000,
        tx_hash: `0x${'a'.repeat(64)}`,
        created_at: at(12),
      }),
    },
    upgrade: {
      message:
        'Hold 1,000,000 platform tokens (entry tier) or subscribe (monthly 1,000,000 CLAW, quarterly 2,500,000 CLAW) for live data.',
      required_tier: 'entry' as const,
      tokens_required: 1_000_000,
    },
    _links: {
      self: `${base}/api/smart-money/preview`,
      subscribe: `${base}/api/v1/smart-money/subscribe`,
      events: `${base}/api/smart-money/events`,
      alerts: `${base}/api/smart-money/alerts`,
      wallets: `${base}/api/smart-money/wallets`,
      deposit: `${base}/api/v1/credits/deposit`,
    },
  };
}
