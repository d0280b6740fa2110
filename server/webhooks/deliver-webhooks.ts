import { ASYNC_COMMIT } from '../core/db/async-commit';
import type { Database } from '../core/db/open';
import type { Queryable } from '../core/db/sql-runner';
import { InFlight, STOP_WAIT_MS } from '../core/in-flight';
import { log } from '../core/log';
import type { Runtime } from '../core/runtime';
import { sharedCache, sharedState } from '../core/shared-state';
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
//
// A slow receiver delays only itself (issue 19): at most PER_RECEIVER attempts to one webhook are in
// flight at once, counted across instances from the leases in the table; claims take due deliveries
// in turns across webhooks (each webhook's oldest first), so a backlog of one never queues another;
// each attempt is settled as soon as it ends (attempts ending together share one statement), and a
// freed slot is refilled at once.
//
// A dead receiver costs little (issue 23, backpressure): after WEBHOOK_CIRCUIT_AFTER attempts in a
// row failed (refused, timed out, non-2xx), its circuit opens: none of its deliveries is claimed
// until `paused_until` (1 s, doubling with each further failure, at most WEBHOOK_CIRCUIT_MAX_MS), and
// then one attempt at a time probes it; a success closes the circuit. Waiting deliveries keep their
// attempts (the retry schedule counts attempts made, not time paused). The queue itself is the
// table (disk, not memory); memory is bounded by WEBHOOK_MAX_IN_FLIGHT attempts (64 KiB answer cap each).

export const RETRY_DELAYS_MS = [30_000, 5 * 60_000, 30 * 60_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
const FAN_OUT_BATCH = 500;
const CLAIM_BATCH = 50;
/** Attempts in flight to one webhook, across instances (WEBHOOK_MAX_PER_RECEIVER's default). */
export const PER_RECEIVER = 4;
/** The first pause of an open circuit; each further failed attempt doubles it. */
export const CIRCUIT_BASE_MS = 1000;

export interface WebhookSettings {
  timeoutMs: number;
  allowPrivate: boolean;
  authSecret: string;
  disableAfter: number;
  /** Attempts in flight from one sender (one per database handle and process). */
  maxInFlight: number;
  /** Attempts in flight to one webhook, across instances. */
  perReceiver: number;
  /** Failed attempts in a row that open a webhook's circuit. */
  circuitAfter: number;
  /** The longest pause of an open circuit. */
  circuitMaxMs: number;
}

export function webhookSettings(runtime: Runtime): WebhookSettings {
  const { config } = runtime;
  return {
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    allowPrivate: config.ALLOW_PRIVATE_URLS,
    authSecret: config.AUTH_SECRET,
    disableAfter: config.WEBHOOK_DISABLE_AFTER,
    maxInFlight: config.WEBHOOK_MAX_IN_FLIGHT,
    perReceiver: config.WEBHOOK_MAX_PER_RECEIVER,
    circuitAfter: config.WEBHOOK_CIRCUIT_AFTER,
    circuitMaxMs: config.WEBHOOK_CIRCUIT_MAX_MS,
  };
}

const GATED_TIERS = `('entry', 'pro', 'enterprise')`;
const GATED_EVENTS = Object.entries(EVENT_MIN_TIER)
  .filter(([, tier]) => tier !== 'none')
  .map(([name]) => name);

/**
 * Turns the log's new events into deliveries: how many events it consumed and deliveries it made.
 * One statement: it locks the cursor row (a second instance waits, then reads the advanced cursor),
 * matches the events after it to the active webhooks and moves the cursor past them. Its commit is
 * asynchronous (async-commit.ts): a database crash that lost it loses the deliveries and the cursor's move
 * together, so the next pass makes them again (and any later durable commit, a claim's, flushes it first).
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
       (SELECT count(*) FROM moved)::int AS moved, ${ASYNC_COMMIT} AS async_commit`,
    [GATED_EVENTS],
    { prepare: true },
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

const DUE = `((d.status = 'pending' AND d.next_attempt_at <= $1) OR (d.status = 'delivering' AND d.claimed_until < $1))`;

/**
 * Claims up to `limit` due deliveries, the attempt counted and leased in the claim: in turns across
 * webhooks (every webhook's first due delivery, then every second one...), and never more than
 * `perReceiver` in flight to one webhook counting the live leases of every instance; none of a
 * paused webhook (open circuit), and one at a time of a webhook whose circuit was open (the probe).
 */
async function claimDue(
  sql: Queryable,
  now: Date,
  leaseMs: number,
  limit: number,
  settings: Pick<WebhookSettings, 'perReceiver' | 'circuitAfter'>,
): Promise<ClaimedRow[]> {
  return sql.query<ClaimedRow>(
    `WITH busy AS (
       SELECT webhook_id, count(*)::int AS n FROM webhook_deliveries
       WHERE status = 'delivering' AND claimed_until >= $1 GROUP BY webhook_id
     ), ranked AS (
       SELECT d.id, d.next_attempt_at,
         row_number() OVER (PARTITION BY d.webhook_id ORDER BY d.next_attempt_at, d.id) + coalesce(b.n, 0) AS turn,
         CASE WHEN w.failed_attempts >= $5 THEN 1 ELSE $4 END AS slots
       FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id AND w.is_active
         AND (w.paused_until IS NULL OR w.paused_until <= $1)
       LEFT JOIN busy b ON b.webhook_id = d.webhook_id
       WHERE ${DUE}
     ), due AS (
       SELECT d.id FROM webhook_deliveries d JOIN ranked r ON r.id = d.id
       WHERE r.turn <= r.slots AND ${DUE}
       ORDER BY r.turn, r.next_attempt_at
       LIMIT $3
       FOR UPDATE OF d SKIP LOCKED
     )
     UPDATE webhook_deliveries d
     SET status = 'delivering', attempts = d.attempts + 1, claimed_until = $2, last_attempt_at = $1
     FROM due, webhooks w, events e
     WHERE d.id = due.id AND w.id = d.webhook_id AND e.id = d.event_id
     RETURNING d.id, d.webhook_id, d.event_id::text AS event_id, d.attempts, w.url, w.secret_ciphertext, e.name, e.data, e.created_at`,
    [now, new Date(now.getTime() + leaseMs), limit, settings.perReceiver, settings.circuitAfter],
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
       SELECT webhook_id, count(*) FILTER (WHERE ok)::int AS ok, count(*) FILTER (WHERE final)::int AS failed,
         count(*) FILTER (WHERE NOT ok)::int AS missed
       FROM settled GROUP BY webhook_id
     )
     UPDATE webhooks w
     SET failed_attempts = CASE WHEN t.ok > 0 THEN 0 ELSE w.failed_attempts + t.missed END,
         paused_until = CASE WHEN t.ok > 0 OR w.failed_attempts + t.missed < $10 THEN NULL
           ELSE $13::timestamptz + least($11::float8, $12::float8 * power(2, least(w.failed_attempts + t.missed - $10, 40)))
             * interval '1 millisecond' END,
         delivery_count = w.delivery_count + t.ok,
         last_delivered_at = CASE WHEN t.ok > 0 THEN $8::timestamptz ELSE w.last_delivered_at END,
         consecutive_failures = CASE WHEN t.ok > 0 THEN 0 ELSE w.consecutive_failures + t.failed END,
         is_active = CASE WHEN t.ok = 0 AND w.consecutive_failures + t.failed >= $9 THEN false ELSE w.is_active END,
         disabled_reason = CASE WHEN t.ok = 0 AND w.consecutive_failures + t.failed >= $9 THEN 'too many failed deliveries'
                                ELSE w.disabled_reason END
     FROM tally t
     WHERE w.id = t.webhook_id`,
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
      settings.circuitAfter,
      settings.circuitMaxMs,
      CIRCUIT_BASE_MS,
      now.toISOString(),
    ],
  );
}

/** One attempt of a claimed delivery (never throws: every failure is a failed attempt). */
async function attemptDelivery(row: ClaimedRow, settings: WebhookSettings): Promise<Attempt> {
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
}

/**
 * Sends due deliveries from one database handle: keeps up to `maxInFlight` attempts going, claims
 * again whenever one ends or new deliveries are announced (wake), settles each attempt as soon as it
 * ends, and finishes a run when nothing is due and nothing is in flight.
 */
class Sender {
  private inFlight = 0;
  private signalled = false;
  private waiter: (() => void) | null = null;
  private running: { now: number | null; done: Promise<number> } | null = null;
  private stopped = false;
  private readonly settling: { row: ClaimedRow; attempt: Attempt; now: Date; done: () => void }[] = [];
  private flushing = false;

  constructor(
    readonly database: Database,
    public settings: WebhookSettings,
  ) {}

  /** Sends until nothing is due (at `now`, default the clock); a call during a run joins it. */
  run(now?: Date): Promise<number> {
    const at = now?.getTime() ?? null;
    if (this.running) {
      if (this.running.now === at) {
        this.wake();
        return this.running.done;
      }
      return this.running.done.then(() => this.run(now));
    }
    this.stopped = false;
    const done = this.loop(now).finally(() => {
      this.running = null;
    });
    this.running = { now: at, done };
    return done;
  }

  /** New deliveries may be due: a running loop claims again. */
  wake(): void {
    this.signalled = true;
    this.waiter?.();
  }

  /** Ends the current run once its attempts in flight are settled (the worker stopping); resolves then. */
  stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    return this.running
      ? this.running.done.then(
          () => undefined,
          () => undefined,
        )
      : Promise.resolve();
  }

  private next(): Promise<void> {
    if (this.signalled) {
      this.signalled = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.waiter = () => {
        this.waiter = null;
        this.signalled = false;
        resolve();
      };
    });
  }

  private async loop(now: Date | undefined): Promise<number> {
    let made = 0;
    this.signalled = false;
    for (;;) {
      const free = this.stopped ? 0 : this.settings.maxInFlight - this.inFlight;
      let claimed = 0;
      if (free > 0) {
        const at = now ?? new Date();
        const rows = await claimDue(
          this.database.sql,
          at,
          this.settings.timeoutMs + 30_000,
          Math.min(free, CLAIM_BATCH),
          this.settings,
        );
        claimed = rows.length;
        made += claimed;
        for (const row of rows) this.start(row, now);
      }
      if (claimed === 0 && this.inFlight === 0) {
        if (this.signalled && !this.stopped) {
          this.signalled = false;
          continue;
        }
        return made;
      }
      // A full batch with room left: more may be due at once. Otherwise wait for an attempt to end or a wake.
      if (claimed === CLAIM_BATCH && claimed < free) continue;
      await this.next();
    }
  }

  private start(row: ClaimedRow, now: Date | undefined): void {
    this.inFlight++;
    void attemptDelivery(row, this.settings)
      .then((attempt) => new Promise<void>((done) => this.settle(row, attempt, now ?? new Date(), done)))
      .finally(() => {
        this.inFlight--;
        this.wake();
      });
  }

  /** Queues an outcome; outcomes that end while a statement runs are settled together by the next one. */
  private settle(row: ClaimedRow, attempt: Attempt, now: Date, done: () => void): void {
    this.settling.push({ row, attempt, now, done });
    if (this.flushing) return;
    this.flushing = true;
    void (async () => {
      while (this.settling.length > 0) {
        const batch = this.settling.splice(0, CLAIM_BATCH * 4);
        try {
          await settle(
            this.database,
            batch.map((b) => b.row),
            batch.map((b) => b.attempt),
            batch[0]!.now,
            this.settings,
          );
        } catch (error) {
          // The rows keep their lease; once it runs out they are claimed again (as the next attempt).
          log.error({ err: error }, 'webhook settle failed');
        }
        for (const b of batch) b.done();
      }
      this.flushing = false;
    })();
  }
}

// One sender per database handle in a process: the worker, the scheduled job and the cron route share it.
const senders = sharedState('webhooks.senders', () => new WeakMap<Database, Sender>());

function senderFor(database: Database, settings: WebhookSettings): Sender {
  let sender = senders().get(database);
  if (!sender) senders().set(database, (sender = new Sender(database, settings)));
  sender.settings = settings;
  return sender;
}

/** Claims and sends due deliveries until none is due and none is in flight; returns how many attempts were made. */
export function deliverDue(database: Database, settings: WebhookSettings, now?: Date): Promise<number> {
  return senderFor(database, settings).run(now);
}

/** Turns every new log event into deliveries; how many deliveries were made. */
async function fanOutAll(database: Database): Promise<number> {
  let created = 0;
  for (;;) {
    const batch = await fanOut(database);
    created += batch.created;
    if (batch.consumed < FAN_OUT_BATCH) return created;
  }
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
  const created = await fanOutAll(database);
  if (options.onlyNew && created === 0) return 0;
  return deliverDue(database, settings, now);
}

/**
 * How long the events committed meanwhile wait for their fan-out, at most: one pass takes every event committed
 * in the window. A commit's notice reaches this instance once per listening connection (open.ts), and under load
 * events commit faster than passes run: a pass per notice was a fan-out statement per event, or more.
 */
export const FAN_OUT_WINDOW_MS = 10;

/**
 * The event names some active webhook subscribes to (one entry), as this instance last read them: a pass woken by an
 * event no webhook wants would consume it and make nothing (one statement, 0.3-0.7 ms of the database's time, per
 * event window on every instance). Dropped on every `webhook` change notice (migration webhook_change_notices: a
 * webhook created, deleted, paused, resumed or given other events) and after a minute; until read again, every event
 * wakes a pass. A hint only: the timed pass fans out every event whatever this says, so a name learned late delays
 * its deliveries by at most one period, never loses them.
 */
const subscribedNames = sharedCache<Set<string>>('webhooks.subscribed-names', { ttlMs: 60_000, dropOn: ['webhook'] });

async function readSubscribedNames(database: Database): Promise<Set<string>> {
  const rows = await database.sql.query<{ name: string }>(`SELECT DISTINCT unnest(events) AS name FROM webhooks WHERE is_active`);
  return new Set(rows.map((row) => row.name));
}

/**
 * Fans out whenever an event some webhook subscribes to is committed (change notice, a hint; the notices of
 * FAN_OUT_WINDOW_MS make one pass)
 * and every `everyMs` as a fallback (fan-outs never overlap on one instance), and hands what is due to the
 * instance's sender without waiting for it: slow receivers never hold up the next fan-out. Returns a function
 * that stops it.
 */
export function startWebhookWorker(runtime: Runtime, everyMs = 2000): () => Promise<void> {
  const inFlight = new InFlight();
  let stopped = false;
  let running = false;
  let again = false;
  let full = false;
  let waiting: NodeJS.Timeout | undefined;
  // `timed`: the fallback pass, which also sends retries that came due; a pass for a committed event
  // sends only what its fan-out made.
  const pass = async (timed: boolean) => {
    if (stopped) return;
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
        const created = await fanOutAll(runtime.database);
        if (!stopped && (!onlyNew || created > 0)) {
          senderFor(runtime.database, webhookSettings(runtime))
            .run()
            .catch((error) => log.error({ err: error }, 'webhook delivery failed'));
        }
      } while (again);
    } catch (error) {
      log.error({ err: error }, 'webhook pass failed');
    } finally {
      running = false;
    }
  };
  const names = subscribedNames(runtime);
  const stop = runtime.changes.on('event', (notice) => {
    // A wake-up that names no event (a redelivery, a lost connection's publishAll) also sends what is due.
    if (notice.id === null) full = true;
    else {
      const subscribed = names.peek('all');
      // An event no active webhook subscribes to makes no delivery: the timed pass moves the cursor past it.
      if (subscribed && !subscribed.has(notice.id)) return;
      if (!subscribed) {
        const reading = names.get('all', () => readSubscribedNames(runtime.database));
        void inFlight.add(
          reading.catch((error: unknown) => log.warn({ err: error }, 'reading the webhooks’ event names failed')),
        );
      }
    }
    waiting ??= setTimeout(() => {
      waiting = undefined;
      void inFlight.add(pass(false));
    }, FAN_OUT_WINDOW_MS);
  });
  const timer = setInterval(() => void inFlight.add(pass(true)), everyMs);
  timer.unref();
  void inFlight.add(pass(true));
  // Stopping waits for the pass in flight and the sender's attempts in flight (STOP_WAIT_MS at most), so the
  // runtime closes its database after them.
  return () => {
    stopped = true;
    stop();
    clearTimeout(waiting);
    clearInterval(timer);
    const sending = senders(runtime).get(runtime.database)?.stop();
    if (sending) void inFlight.add(sending);
    return inFlight.settled(STOP_WAIT_MS);
  };
}
