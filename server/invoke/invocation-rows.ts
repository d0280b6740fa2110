import type { SqlParams } from '../core/db/sql-runner';
import type { RowsKind } from '../credits/ledger-batch';
import { audienceOf } from '../events/emit';

// A paid call's two ledger posts write their invocation rows beside the money (ledger-batch.ts, RowsKind): the
// charge inserts the pending record, the settlement finishes it and appends agent.invoked. In a batch, every
// call's rows of a kind go through one set of CTEs over arrays, so the batch statement keeps one text.

/** The record a charge inserts (status pending). */
export interface InvocationCharge {
  id: string;
  callerWallet: string;
  callerAgentId: string | null;
  targetAgentId: string;
  targetWallet: string;
  fee: bigint;
  family: string;
  createdAt: Date;
}

export const INVOCATION_CHARGES: RowsKind<InvocationCharge> = {
  name: 'invocation_charges',
  ctes(p: SqlParams, rows: InvocationCharge[], scope) {
    const column = <T>(pick: (row: InvocationCharge) => T) => p.add(rows.map(pick));
    const values = scope.name('charged_rows');
    return [
      `${values} AS (
        SELECT * FROM unnest(${column((r) => r.id)}::uuid[], ${column((r) => r.callerWallet)}::text[],
          ${column((r) => r.callerAgentId)}::uuid[], ${column((r) => r.targetAgentId)}::uuid[], ${column((r) => r.targetWallet)}::text[],
          ${column((r) => r.fee.toString())}::bigint[], ${column((r) => r.family)}::text[], ${column((r) => r.createdAt)}::timestamptz[])
          AS v(id, caller_wallet, caller_agent_id, target_agent_id, target_wallet, fee, family, created_at))`,
      `${scope.name('charged')} AS (
        INSERT INTO invocations (id, caller_wallet, caller_agent_id, target_agent_id, target_wallet, fee, status, family, created_at)
        SELECT id, caller_wallet, caller_agent_id, target_agent_id, target_wallet, fee, 'pending', family, created_at FROM ${values}
        RETURNING id)`,
    ];
  },
};

/** How a call ended: the record's final columns and its agent.invoked event. */
export interface InvocationSettlement {
  id: string;
  status: string;
  httpStatus: number | null;
  durationMs: number;
  error: string | null;
  event: Record<string, unknown>;
  audience: string[];
}

export const INVOCATION_SETTLEMENTS: RowsKind<InvocationSettlement> = {
  name: 'invocation_settlements',
  ctes(p: SqlParams, rows: InvocationSettlement[], scope) {
    const column = <T>(pick: (row: InvocationSettlement) => T) => p.add(rows.map(pick));
    const values = scope.name('settled_rows');
    const settled = scope.name('settled');
    return [
      `${values} AS (
        SELECT * FROM unnest(${column((r) => r.id)}::uuid[], ${column((r) => r.status)}::text[], ${column((r) => r.httpStatus)}::int[],
          ${column((r) => r.durationMs)}::int[], ${column((r) => r.error)}::text[], ${column((r) => JSON.stringify(r.event))}::jsonb[],
          ${column((r) => audienceParam(r.audience))}::jsonb[], ${p.add(rows.map((_, index) => index))}::int[])
          AS v(id, status, http_status, duration_ms, error, data, audience, ord))`,
      // A record already settled (the stale-invocation sweep came first) is left alone, and gets no event.
      `${settled} AS (
        UPDATE invocations i SET status = v.status, http_status = v.http_status, duration_ms = v.duration_ms, error = v.error,
          completed_at = now()
        FROM ${values} v WHERE i.id = v.id AND i.status = 'pending'
        RETURNING i.id)`,
      invokedEvents(scope.name('settled_event'), values, settled),
    ];
  },
};

/**
 * The agent.invoked events of the rows of `values` (columns id, data, audience as a JSON array, ord) whose record
 * `written` returned, in `ord` order: a paid call's settlement and the free calls' record (record-free-calls.ts).
 */
export function invokedEvents(cteName: string, values: string, written: string): string {
  return `${cteName} AS (
        INSERT INTO events (name, data, audience)
        SELECT 'agent.invoked', v.data, ARRAY(SELECT jsonb_array_elements_text(v.audience))
        FROM ${values} v JOIN ${written} ON ${written}.id = v.id ORDER BY v.ord
        RETURNING id)`;
}

/** A call's event audience as the array parameter `invokedEvents` reads (wallets lower-cased, once each). */
export function audienceParam(audience: string[]): string {
  return JSON.stringify(audienceOf({ audience }));
}
