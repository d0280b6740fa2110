import type { Database } from '../core/db/open';
import { prismaRunner, type Queryable } from '../core/db/sql-runner';
import { log } from '../core/log';
import type { Runtime } from '../core/runtime';
import { EVENT_MIN_TIER } from '../events/emit';
import { envelope, readEvent, type LoggedEvent } from '../events/log';
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

/** Turns the log's new events into deliveries; returns how many events it consumed. */
export async function fanOut(database: Database): Promise<number> {
  return database.prisma.$transaction(
    async (tx) => {
      const sql = prismaRunner(tx);
      await sql.query(`INSERT INTO event_cursors (name, last_id) VALUES ('webhooks', 0) ON CONFLICT (name) DO NOTHING`);
      const [cursor] = await sql.query<{ last_id: string }>(
        `SELECT last_id::text FROM event_cursors WHERE name = 'webhooks' FOR UPDATE`,
      );
      const [result] = await sql.query<{ consumed: number; last: string | null }>(
        `WITH ev AS (
           SELECT id, name, audience, created_at FROM events WHERE id > $1::bigint ORDER BY id LIMIT ${FAN_OUT_BATCH}
         ), matched AS (
           INSERT INTO webhook_deliveries (id, webhook_id, event_id, next_attempt_at)
           SELECT gen_random_uuid(), w.id, ev.id, ev.created_at
           FROM ev JOIN webhooks w ON w.is_active AND ev.name = ANY (w.events) AND w.created_at <= ev.created_at
           WHERE (cardinality(ev.audience) = 0 OR lower(w.owner_wallet) = ANY (ev.audience))
             AND (ev.name <> ALL ($2::text[])
                  OR EXISTS (SELECT 1 FROM agents a WHERE a.owner_wallet = w.owner_wallet AND a.tier IN ${GATED_TIERS}))
           ON CONFLICT (webhook_id, event_id) DO NOTHING
           RETURNING 1
         )
         SELECT (SELECT count(*) FROM ev)::int AS consumed, (SELECT max(id) FROM ev)::text AS last, (SELECT count(*) FROM matched)::int AS created`,
        [cursor!.last_id, GATED_EVENTS],
      );
      if (result && result.last !== null) {
        await sql.query(`UPDATE event_cursors SET last_id = $1::bigint WHERE name = 'webhooks'`, [result.last]);
      }
      return result?.consumed ?? 0;
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
}

interface ClaimedRow {
  id: string;
  webhook_id: string;
  event_id: string;
  attempts: number;
  url: string;
  secret_ciphertext: string | null;
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
     FROM due, webhooks w
     WHERE d.id = due.id AND w.id = d.webhook_id
     RETURNING d.id, d.webhook_id, d.event_id::text AS event_id, d.attempts, w.url, w.secret_ciphertext`,
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

/** Records an attempt's outcome, unless another worker re-claimed the row after the lease ran out. */
async function settle(
  database: Database,
  row: ClaimedRow,
  attempt: Attempt,
  now: Date,
  settings: WebhookSettings,
): Promise<void> {
  const sql = database.sql;
  const done = new Date();
  if (attempt.ok) {
    const updated = await sql.query(
      `UPDATE webhook_deliveries SET status = 'delivered', delivered_at = $2, last_status_code = $3, last_error = NULL,
         claimed_until = NULL, next_attempt_at = NULL
       WHERE id = $1 AND status = 'delivering' AND attempts = $4 RETURNING id`,
      [row.id, done, attempt.status, row.attempts],
    );
    if (updated.length > 0) {
      await sql.query(
        `UPDATE webhooks SET delivery_count = delivery_count + 1, last_delivered_at = $2, consecutive_failures = 0 WHERE id = $1`,
        [row.webhook_id, done],
      );
    }
    return;
  }
  const final = row.attempts >= MAX_ATTEMPTS;
  const next = final ? null : new Date(now.getTime() + RETRY_DELAYS_MS[row.attempts - 1]!);
  const updated = await sql.query(
    `UPDATE webhook_deliveries SET status = $2, next_attempt_at = $3, last_status_code = $4, last_error = $5, claimed_until = NULL
     WHERE id = $1 AND status = 'delivering' AND attempts = $6 RETURNING id`,
    [row.id, final ? 'failed' : 'pending', next, attempt.status, attempt.error?.slice(0, 500) ?? null, row.attempts],
  );
  if (final && updated.length > 0) {
    // Repeated failed deliveries switch the webhook off (redeliver or a new registration turns it on).
    await sql.query(
      `UPDATE webhooks SET consecutive_failures = consecutive_failures + 1,
         is_active = CASE WHEN consecutive_failures + 1 >= $2 THEN false ELSE is_active END,
         disabled_reason = CASE WHEN consecutive_failures + 1 >= $2 THEN 'too many failed deliveries' ELSE disabled_reason END
       WHERE id = $1`,
      [row.webhook_id, settings.disableAfter],
    );
  }
}

/** Claims and sends due deliveries until none is due; returns how many attempts were made. */
export async function deliverDue(database: Database, settings: WebhookSettings, now = new Date()): Promise<number> {
  let made = 0;
  for (;;) {
    const claimed = await claimDue(database.sql, now, settings.timeoutMs + 30_000, CLAIM_BATCH);
    if (claimed.length === 0) return made;
    made += claimed.length;
    await Promise.all(
      claimed.map(async (row) => {
        const event = await readEvent(database.sql, BigInt(row.event_id));
        let secret: string | null = null;
        try {
          secret = row.secret_ciphertext ? decryptSecret(row.secret_ciphertext, settings.authSecret) : null;
        } catch (error) {
          log.error({ webhook: row.webhook_id, err: error }, 'webhook secret unreadable (AUTH_SECRET changed?)');
        }
        const attempt: Attempt = !event
          ? { ok: false, status: null, error: 'event no longer in the log' }
          : row.secret_ciphertext && !secret
            ? { ok: false, status: null, error: 'signing secret unreadable' }
            : await sendDelivery(row.url, event, secret, settings);
        await settle(database, row, attempt, now, settings);
      }),
    );
  }
}

/** One pass of the webhook job: fan out what is new, then send what is due. */
export async function runWebhooks(database: Database, settings: WebhookSettings, now?: Date): Promise<number> {
  while ((await fanOut(database)) === FAN_OUT_BATCH) {
    /* keep going until the log is consumed */
  }
  return deliverDue(database, settings, now ?? new Date());
}

/**
 * Runs a pass whenever an event is committed (change notice, a hint) and every `everyMs` as a
 * fallback; passes never overlap on one instance. Returns a function that stops it.
 */
export function startWebhookWorker(runtime: Runtime, everyMs = 2000): () => void {
  let running = false;
  let again = false;
  const pass = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await runWebhooks(runtime.database, webhookSettings(runtime));
      } while (again);
    } catch (error) {
      log.error({ err: error }, 'webhook pass failed');
    } finally {
      running = false;
    }
  };
  const stop = runtime.changes.on('event', () => void pass());
  const timer = setInterval(() => void pass(), everyMs);
  timer.unref();
  void pass();
  return () => {
    stop();
    clearInterval(timer);
  };
}
