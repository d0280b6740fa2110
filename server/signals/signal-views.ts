import { getAddress } from 'viem';
import { microToClaw } from '../core/money';

export interface SignalRow {
  id: string;
  publisher_wallet: string;
  title: string;
  body: string;
  signal_type: 'long' | 'short' | 'alert' | 'insight' | 'neutral';
  asset: string;
  confidence: number;
  stake: string | bigint;
  agree_total: string | bigint;
  disagree_total: string | bigint;
  stake_count: number;
  status: 'open' | 'pending_resolution' | 'disputed' | 'resolved';
  proposed_outcome: 'correct' | 'incorrect' | 'expired' | null;
  dispute_deadline: Date | string | null;
  disputed_at: Date | string | null;
  outcome: 'correct' | 'incorrect' | 'expired' | null;
  fee: string | bigint | null;
  resolved_at: Date | string | null;
  created_at: Date | string;
}

export const SIGNAL_COLUMNS = `s.id, s.publisher_wallet, s.title, s.body, s.signal_type, s.asset, s.confidence, s.stake, s.agree_total,
  s.disagree_total, s.stake_count, s.status, s.outcome, s.fee, s.resolved_at, s.created_at, s.proposed_outcome, s.dispute_deadline,
  s.disputed_at`;

export function presentSignal(row: SignalRow) {
  const stake = BigInt(row.stake);
  const agree = BigInt(row.agree_total);
  const disagree = BigInt(row.disagree_total);
  return {
    signal_id: row.id,
    title: row.title,
    body: row.body,
    signal_type: row.signal_type,
    asset: row.asset,
    confidence: Number(row.confidence),
    stake_claw: microToClaw(stake),
    publisher_wallet: getAddress(row.publisher_wallet),
    created_at: new Date(row.created_at).toISOString(),
    status: row.status,
    outcome: row.outcome,
    resolved_at: row.resolved_at ? new Date(row.resolved_at).toISOString() : null,
    proposed_outcome: row.proposed_outcome,
    dispute_deadline: row.dispute_deadline ? new Date(row.dispute_deadline).toISOString() : null,
    disputed_at: row.disputed_at ? new Date(row.disputed_at).toISOString() : null,
    agree_claw: microToClaw(agree),
    disagree_claw: microToClaw(disagree),
    total_staked_claw: microToClaw(stake + agree + disagree),
    stake_count: Number(row.stake_count),
  };
}
