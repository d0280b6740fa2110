import { database } from '../core/db';
import { countersTotal } from '../core/db/list-totals';
import { SqlParams } from '../core/db/sql-runner';
import { SIGNAL_STATUSES, SIGNAL_TYPES } from '../schemas/enums';
import { ApiError } from '../core/errors';
import { microToClaw } from '../core/money';
import { getAddress } from 'viem';
import { presentSignal, SIGNAL_COLUMNS, type SignalRow } from './signal-views';

export interface ListSignalsInput {
  signalType?: string;
  /** A status, or `unresolved` (anything but resolved: the admin console's list). */
  status?: 'open' | 'pending_resolution' | 'disputed' | 'resolved' | 'unresolved';
  sort?: 'newest' | 'most_staked' | 'confidence';
  limit: number;
  offset: number;
}

const ORDER = {
  newest: 's.created_at DESC, s.id DESC',
  most_staked: '(s.stake + s.agree_total + s.disagree_total) DESC, s.created_at DESC, s.id DESC',
  confidence: 's.confidence DESC, s.created_at DESC, s.id DESC',
} as const;

/** GET /api/v1/signals */
export async function listSignals(input: ListSignalsInput) {
  const p = new SqlParams();
  const where: string[] = [];
  if (input.signalType) where.push(`s.signal_type = ${p.add(input.signalType)}`);
  if (input.status === 'unresolved') where.push(`s.status <> 'resolved'`);
  else if (input.status) where.push(`s.status = ${p.add(input.status)}`);
  const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
  // The total is a sum of the counters per type and status (migration list_totals): every filter here is one.
  const types = input.signalType ? [input.signalType] : SIGNAL_TYPES;
  const statuses = SIGNAL_STATUSES.filter((status) =>
    input.status === 'unresolved' ? status !== 'resolved' : !input.status || status === input.status,
  );
  const { sql } = database();
  const [rows, counted] = await Promise.all([
    sql.query<SignalRow>(
      `SELECT ${SIGNAL_COLUMNS} FROM signals s ${filter} ORDER BY ${ORDER[input.sort ?? 'newest']}
       LIMIT ${Math.floor(input.limit)} OFFSET ${Math.floor(input.offset)}`,
      p.values,
    ),
    countersTotal(
      sql,
      types.flatMap((type) => statuses.map((status) => `signals:${type}:${status}`)),
    ),
  ]);
  return { signals: rows.map(presentSignal), total: counted.total };
}

/** GET /api/v1/signals/{id}: the signal, its stake totals, the fee once resolved and its 100 largest stakes. */
export async function getSignal(id: string) {
  const { sql } = database();
  const [[row], stakes] = await Promise.all([
    sql.query<SignalRow>(`SELECT ${SIGNAL_COLUMNS} FROM signals s WHERE s.id = $1`, [id]),
    sql.query<{ id: string; staker_wallet: string; stance: 'agree' | 'disagree'; amount: string; payout: string | null }>(
      `SELECT id, staker_wallet, stance, amount, payout FROM signal_stakes WHERE signal_id = $1 ORDER BY amount DESC, created_at ASC LIMIT 100`,
      [id],
    ),
  ]);
  if (!row) throw ApiError.notFound('Signal');
  return {
    ...presentSignal(row),
    fee_claw: row.fee === null ? null : microToClaw(BigInt(row.fee)),
    stakes: stakes.map((s) => ({
      stake_id: s.id,
      staker_wallet: getAddress(s.staker_wallet),
      stance: s.stance,
      amount_claw: microToClaw(BigInt(s.amount)),
      payout_claw: s.payout === null ? null : microToClaw(BigInt(s.payout)),
    })),
  };
}
