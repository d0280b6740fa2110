import { ASYNC_COMMIT } from '../core/db/async-commit';
import type { Queryable } from '../core/db/sql-runner';
import { isDatabaseUnavailable } from '../core/db/unavailable';
import { GroupQueue, type Queued } from '../core/group-queue';
import { wake } from '../events/emit';
import { audienceParam, invokedEvents } from './invocation-rows';

// A free call's record and its agent.invoked event, written once it is answered (invoke-agent.ts). Under load the
// records that arrive while one statement is in flight go together as the next one (as the ledger's batcher does
// for paid calls, ledger-batch.ts): one commit, one events-order lock and one change notice for the group instead
// of one each, which is most of what a free call costs the database. A call on an idle router goes at once.

/** A free call, answered: its record (final) and its event's payload and audience. */
export interface FreeCall {
  id: string;
  callerWallet: string;
  callerAgentId: string | null;
  targetAgentId: string;
  targetWallet: string;
  status: string;
  httpStatus: number | null;
  durationMs: number;
  error: string | null;
  family: string;
  createdAt: Date;
  event: Record<string, unknown>;
  audience: string[];
}

/**
 * The most records in one statement, and the statements in flight at once: one (measured at 10 connections on
 * PostgreSQL, 2026-11-25: with two in flight the groups stayed near one record each, 10.0 ms router p50; with one,
 * 7.9 ms).
 */
const MAX_ITEMS = 100;
const MAX_IN_FLIGHT = 1;

/** One statement writing every call's record and event (asynchronous commit: docs/spec-decisions.md). */
export function freeCallsStatement(calls: FreeCall[]): { sql: string; params: unknown[] } {
  const column = <T>(pick: (call: FreeCall) => T) => calls.map(pick);
  return {
    sql: `WITH v AS (
        SELECT * FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::int[], $8::int[],
          $9::text[], $10::text[], $11::timestamptz[], $12::jsonb[], $13::jsonb[], $14::int[])
          AS v(id, caller_wallet, caller_agent_id, target_agent_id, target_wallet, status, http_status, duration_ms, error,
            family, created_at, data, audience, ord)),
      invocation AS (
        INSERT INTO invocations (id, caller_wallet, caller_agent_id, target_agent_id, target_wallet, fee, status, http_status,
          duration_ms, error, family, created_at, completed_at)
        SELECT id, caller_wallet, caller_agent_id, target_agent_id, target_wallet, 0, status, http_status, duration_ms, error,
          family, created_at, now() FROM v
        RETURNING id),
      ${invokedEvents('invocation_event', 'v', 'invocation')}
      SELECT (SELECT count(*) FROM invocation_event)::int AS events, ${ASYNC_COMMIT} AS async_commit`,
    params: [
      column((c) => c.id),
      column((c) => c.callerWallet),
      column((c) => c.callerAgentId),
      column((c) => c.targetAgentId),
      column((c) => c.targetWallet),
      column((c) => c.status),
      column((c) => c.httpStatus),
      column((c) => c.durationMs),
      column((c) => c.error),
      column((c) => c.family),
      column((c) => c.createdAt),
      column((c) => JSON.stringify(c.event)),
      column((c) => audienceParam(c.audience)),
      calls.map((_, index) => index),
    ],
  };
}

type Pending = Queued<FreeCall, void>;

/** What the recorders of this process did: statements and the records they carried (tests, benches). */
export const freeCallStats = { statements: 0, records: 0 };

/** Groups the free calls recorded on one runner while statements are in flight. */
class FreeCallRecorder {
  private readonly queue = new GroupQueue<FreeCall, void>({ maxInFlight: MAX_IN_FLIGHT, maxItems: MAX_ITEMS }, (group) =>
    this.run(group),
  );

  constructor(private readonly runner: Queryable) {}

  record(call: FreeCall): Promise<void> {
    return this.queue.submit(call);
  }

  private async run(group: Pending[]): Promise<void> {
    try {
      const { sql, params } = freeCallsStatement(group.map((pending) => pending.item));
      // One text whatever the group's size: prepared once per pooled connection.
      await this.runner.query(sql, params, { prepare: true });
      freeCallStats.statements++;
      freeCallStats.records += group.length;
      wake('agent.invoked');
      for (const pending of group) pending.resolve();
    } catch (error) {
      // A lost connection fails every call of the group, as it would each alone. Anything else the statement
      // refused (it rolled back whole) is retried call by call, so that one bad record fails only its own call.
      if (group.length === 1 || isDatabaseUnavailable(error)) {
        for (const pending of group) pending.reject(error);
        return;
      }
      for (const pending of group) await this.run([pending]);
    }
  }
}

const recorders = new WeakMap<Queryable, FreeCallRecorder>();

/**
 * Writes a free call's record and event on `runner` (the pool, never a transaction): with the others in flight when
 * `batch` (PostgreSQL), else alone (PGlite, whose one connection runs in this thread, as ledger-batch.ts says).
 */
export async function recordFreeCall(call: FreeCall, runner: Queryable, batch: boolean): Promise<void> {
  if (!batch) {
    const { sql, params } = freeCallsStatement([call]);
    await runner.query(sql, params, { prepare: true });
    wake('agent.invoked');
    return;
  }
  let recorder = recorders.get(runner);
  if (!recorder) {
    recorder = new FreeCallRecorder(runner);
    recorders.set(runner, recorder);
  }
  return recorder.record(call);
}
