import type { Database } from '../core/db/open';
import type { Queryable } from '../core/db/sql-runner';
import { log } from '../core/log';
import type { Runtime } from '../core/runtime';
import { EVENT_MIN_TIER } from '../events/emit';
import { envelope, type LoggedEvent } from '../events/log';
import { OutboundError, outboundRequest } from '../net/outbound';
import { decryptSecret, signatureHeaders } from './signing';

// Webhook delivery (spec: Events, Webhooks; ARCHITECTURE.md, Events). Two steps, each safe on
// any number of instances at once:
//  1. fan-out: one instance at a time (row lock on the `webhooks` cursor) turns new log events
//     into delivery rows for the matching webhooks and advances the cursor in that transaction;
//  2. delivery: workers claim due rows with FOR UPDATE SKIP LOCKED, counting the attempt and
//     taking a lease in the claim, so each attempt is made by exactly one worker.
// 2xx within WEBHOOK_TIMEOUT_MS (10 s) is success; otherwise retries after 30 s, 5 min and
// 30 min, then the delivery is failed. Every attempt carries the same event id.

export const RETRY_DELAYS_MS = [30_000, 5 * 60_000, 30 * 60_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
const FAN_OUT_BATCH = 500;
const CLAIM_BATCH = 50;
const PARALLEL_CLAIMS = 4;

export interface WebhookSettings {
  timeoutMs: number;
  allowPrivate: boolean;
  authSecret: string;
  disableAfter: number;
}

export function webhookSettings(runtime: Runtime): WebhookSettings {
  const { config } = runtime;
  return {
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    allowPrivate: config.ALLOW_PRIVATE_URLS,
    authSecret: config.AUTH_SECRET,
    disableAfter: config.WEBHOOK_DISABLE_AFTER,
  };
}

const GATED_TIERS = `('entry', 'pro', 'enterprise')`;
const GATED_EVENTS = Object.entries(EVENT_MIN_TIER)
  .filter(([, tier]) => tier !== 'none')
  .map(([name]) => name);

/**
 * Turns the log's new events into deliveries: how many events it consumed and deliveries it made.
 * One statement: it locks the cursor row (a second instance waits, then reads the advanced cursor),
 * matches the events after it to the active webhooks and moves the cursor past them.
 */
export async function fanOut(database: Database): Promise<{ consumed: number; created: number }> {
  const [result] = await database.sql.query<{ cursor: string | null; consumed: number; last: string | null; created: number }>(
    `WITH cur AS (
       SELECT last_id FROM event_cursors WHERE name = 'webhooks' FOR UPDATE
     ), ev AS (
       SELECT id, name, audience, created_at FROM events
       WHERE id > (SELECT last_id FROM cur) ORDER BY id LIMIT ${FAN_OUT_BATCH}
     ), matched AS (
       INSERT INTO webhook_deliveries (id, webhook_id, event_id, next_attempt_at)
       SELECT gen_random_uuid(), w.id, ev.id, ev.created_at
       FROM ev JOIN webhooks w ON w.is_active AND ev.name = ANY (w.events) AND w.created_at <= ev.created_at
       WHERE (cardinality(ev.audience) = 0 OR lower(w.owner_wallet) = ANY (ev.audience))
         AND (ev.name <> ALL ($1::text[])
              OR EXISTS (SELECT 1 FROM agents a WHERE a.owner_wallet = w.owner_wallet AND a.tier IN ${GATED_TIERS}))
       ON CONFLICT (webhook_id, event_id) DO NOTHING
       RETURNING 1
     ), moved AS (
       UPDATE event_cursors SET last_id = (SELECT max(id) FROM ev)
       WHERE name = 'webhooks' AND EXISTS (SELECT 1 FROM ev)
       RETURNING 1
     )
     SELECT (SELECT last_id FROM cur)::text AS cursor, (SELECT count(*) FROM ev)::int AS consumed,
       (SELECT max(id) FROM ev)::text AS last, (SELECT count(*) FROM matched)::int AS created,
       (SELECT count(*) FROM moved)::int AS moved`,
    [GATED_EVENTS],
  );
  if (result?.cursor === null || result?.cursor === undefined) {
    // First pass on this database: the cursor starts before the first event.
    await database.sql.query(`INSERT INTO event_cursors (name, last_id) VALUES ('webhooks', 0) ON CONFLICT (name) DO NOTHING`);
    return fanOut(database);
  }
  return { consumed: result.consumed, created: result.created };
}

interface ClaimedRow {
  id: string;
  webhook_id: string;
  event_id: string;
  attempts: number;
  url: string;
  secret_ciphertext: string | null;
  name: string;
  data: Record<string, unknown> | string;
  created_at: Date | string;
}

/** Claims up to `limit` due deliveries: the attempt is counted and leased in the claim. */
async function claimDue(sql: Queryable, now: Date, leaseMs: number, limit: number): Promise<ClaimedRow[]> {
  return sql.query<ClaimedRow>(
    `WITH due AS (
       SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id AND w.is_active
       WHERE (d.status = 'pending' AND d.next_attempt_at <= $1) OR (d.status = 'delivering' AND d.claimed_until < $1)
       ORDER BY d.next_attempt_at
       LIMIT $3
       FOR UPDATE OF d SKIP LOCKED
     )
     UPDATE webhook_deliveries d
     SET status = 'delivering', attempts = d.attempts + 1, claimed_until = $2, last_attempt_at = $1
     FROM due, webhooks w, events e
     WHERE d.id = due.id AND w.id = d.webhook_id AND e.id = d.event_id
     RETURNING d.id, d.webhook_id, d.event_id::text AS event_id, d.attempts, w.url, w.secret_ciphertext, e.name, e.data, e.created_at`,
    [now, new Date(now.getTime() + leaseMs), limit],
  );
}

export interface Attempt {
  ok: boolean;
  status: number | null;
  error: string | null;
}

/** One HTTP POST of an event to a webhook: the exact bytes signed are the bytes sent. */
export async function sendDelivery(
  url: string,
  event: LoggedEvent,
  secret: string | null,
  settings: WebhookSettings,
): Promise<Attempt> {
  const message = envelope(event);
  const body = JSON.stringify(message);
  const timestamp = Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Vouchsafe-Webhooks/1',
    'x-service-event': event.name,
    'webhook-id': message.id,
    'webhook-timestamp': String(timestamp),
    ...(secret ? signatureHeaders(secret, message.id, timestamp, body) : {}),
  };
  try {
    const response = await outboundRequest(url, {
      method: 'POST',
      headers,
      body,
      timeoutMs: settings.timeoutMs,
      maxResponseBytes: 64 * 1024,
      allowPrivate: settings.allowPrivate,
    });
    const ok = response.status >= 200 && response.status < 300;
    return { ok, status: response.status, error: ok ? null : `HTTP ${response.status}` };
  } catch (error) {
    const kind = error instanceof OutboundError ? error.kind : 'network';
    return {
      ok: false,
      status: null,
      error: kind === 'timeout' ? `no answer within ${settings.timeoutMs} ms` : `${kind}: ${(error as Error).message}`,
    };
  }
}

/**
 * Records the outcomes of a batch of attempts in one statement, unless another worker re-claimed a
 * row after its lease ran out; counts successes on the webhooks, and switches off a webhook after
 * `disableAfter` deliveries in a row ended failed.
 */
async function settle(
  database: Database,
  rows: ClaimedRow[],
  attempts: Attempt[],
  now: Date,
  settings: WebhookSettings,
): Promise<void> {
  const final = rows.map((row, i) => !attempts[i]!.ok && row.attempts >= MAX_ATTEMPTS);
  const next = rows.map((row, i) =>
    attempts[i]!.ok || final[i] ? null : new Date(now.getTime() + RETRY_DELAYS_MS[row.attempts - 1]!).toISOString(),
  );
  await database.sql.query(
    `WITH r AS (
       SELECT * FROM unnest($1::uuid[], $2::int[], $3::bool[], $4::bool[], $5::int[], $6::text[], $7::timestamptz[])
         AS r(id, attempts, ok, final, status_code, error, next_at)
     ), settled AS (
       UPDATE webhook_deliveries d
       SET status = CASE WHEN r.ok THEN 'delivered' WHEN r.final THEN 'failed' ELSE 'pending' END,
           delivered_at = CASE WHEN r.ok THEN $8::timestamptz ELSE d.delivered_at END,
           last_status_code = r.status_code, last_error = r.error, claimed_until = NULL, next_attempt_at = r.next_at
       FROM r
       WHERE d.id = r.id AND d.status = 'delivering' AND d.attempts = r.attempts
       RETURNING d.webhook_id, r.ok, r.final
     ), tally AS (
       SELECT webhook_id, count(*) FILTER (WHERE ok)::int AS ok, count(*) FILTER (WHERE final)::int AS failed
       FROM settled GROUP BY webhook_id
     )
     UPDATE webhooks w
     SET delivery_count = w.delivery_count + t.ok,
         last_delivered_at = CASE WHEN t.ok > 0 THEN $8::timestamptz ELSE w.last_delivered_at END,
         consecutive_failures = CASE WHEN t.ok > 0 THEN 0 ELSE w.consecutive_failures + t.failed END,
         is_active = CASE WHEN t.ok = 0 AND w.consecutive_failures + t.failed >= $9 THEN false ELSE w.is_active END,
         disabled_reason = CASE WHEN t.ok = 0 AND w.consecutive_failures + t.failed >= $9 THEN 'too many failed deliveries'
                                ELSE w.disabled_reason END
     FROM tally t
     WHERE w.id = t.webhook_id AND (t.ok > 0 OR t.failed > 0)`,
    [
      rows.map((row) => row.id),
      rows.map((row) => row.attempts),
      attempts.map((attempt) => attempt.ok),
      final,
      attempts.map((attempt) => attempt.status),
      attempts.map((attempt) => attempt.error?.slice(0, 500) ?? null),
      next,
      new Date().toISOString(),
      settings.disableAfter,
    ],
  );
}

/**
 * Claims and sends due deliveries until none is due; returns how many attempts were made. Several
 * claim loops run at once so that database work overlaps the receivers' answers (SKIP LOCKED keeps
 * their rows apart).
 */
export async function deliverDue(database: Database, settings: WebhookSettings, now = new Date()): Promise<number> {
  // One claim first: a pass with nothing due (the common case) costs one query; a full batch means a
  // backlog, and the other loops join in.
  const first = await deliverBatch(database, settings, now);
  if (first < CLAIM_BATCH) return first;
  const made = await Promise.all(Array.from({ length: PARALLEL_CLAIMS }, () => deliverLoop(database, settings, now)));
  return made.reduce((sum, n) => sum + n, first);
}

async function deliverLoop(database: Database, settings: WebhookSettings, now: Date): Promise<number> {
  let made = 0;
  for (;;) {
    const sent = await deliverBatch(database, settings, now);
    made += sent;
    if (sent === 0) return made;
  }
}

/** Claims one batch of due deliveries and sends them; returns how many attempts were made. */
async function deliverBatch(database: Database, settings: WebhookSettings, now: Date): Promise<number> {
  const claimed = await claimDue(database.sql, now, settings.timeoutMs + 30_000, CLAIM_BATCH);
  if (claimed.length === 0) return 0;
  const attempts = await Promise.all(
    claimed.map(async (row): Promise<Attempt> => {
      let secret: string | null = null;
      if (row.secret_ciphertext) {
        try {
          secret = decryptSecret(row.secret_ciphertext, settings.authSecret);
        } catch (error) {
          log.error({ webhook: row.webhook_id, err: error }, 'webhook secret unreadable (AUTH_SECRET changed?)');
          return { ok: false, status: null, error: 'signing secret unreadable' };
        }
      }
      const event: LoggedEvent = {
        id: BigInt(row.event_id),
        name: row.name as LoggedEvent['name'],
        data: typeof row.data === 'string' ? (JSON.parse(row.data) as Record<string, unknown>) : row.data,
        audience: [],
        createdAt: new Date(row.created_at),
      };
      return sendDelivery(row.url, event, secret, settings);
    }),
  );
  await settle(database, claimed, attempts, now, settings);
  return claimed.length;
}

/**
 * One pass of the webhook job: fan out what is new, then send what is due. With `onlyNew` (a pass
 * woken by a committed event) it sends only when the fan-out made deliveries: retries come due with
 * time, and the timed passes send those.
 */
export async function runWebhooks(
  database: Database,
  settings: WebhookSettings,
  now?: Date,
  options: { onlyNew?: boolean } = {},
): Promise<number> {
  let created = 0;
  for (;;) {
    const batch = await fanOut(database);
    created += batch.created;
    if (batch.consumed < FAN_OUT_BATCH) break;
  }
  if (options.onlyNew && created === 0) return 0;
  return deliverDue(database, settings, now ?? new Date());
}

/**
 * Runs a pass whenever an event is committed (change notice, a hint) and every `everyMs` as a
 * fallback; passes never overlap on one instance. Returns a function that stops it.
 */
export function startWebhookWorker(runtime: Runtime, everyMs = 2000): () => void {
  let running = false;
  let again = false;
  let full = false;
  // `timed`: the fallback pass, which also sends retries that came due; a pass for a committed event
  // sends only what its fan-out made.
  const pass = async (timed: boolean) => {
    full ||= timed;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        const onlyNew = !full;
        full = false;
        await runWebhooks(runtime.database, webhookSettings(runtime), undefined, { onlyNew });
      } while (again);
    } catch (error) {
      log.error({ err: error }, 'webhook pass failed');
    } finally {
      running = false;
    }
  };
  const stop = runtime.changes.on('event', () => void pass(false));
  const timer = setInterval(() => void pass(true), everyMs);
  timer.unref();
  void pass(true);
  return () => {
    stop();
    clearInterval(timer);
  };
}
