import { database } from '../core/db';
import { ApiError } from '../core/errors';
import { log } from '../core/log';
import { currentRuntime, type Runtime } from '../core/runtime';
import { sharedState } from '../core/shared-state';
import type { EventName } from '../events/emit';
import { canSee, cursorSince, envelope, readEventsAfter, type LoggedEvent, type Viewer } from '../events/log';
import { eventHub, type EventHub, type HubSubscriber } from './hub';
import { LEASE_RENEW_MS, streamSlots, type StreamSlots } from './stream-slots';

// One SSE connection (spec: Events, Event stream): replay from the log after Last-Event-ID or
// `since`, then live events from the instance's hub, without gap or duplicate (ids are commit
// ordered; see server/events/log.ts). Heartbeats keep proxies from closing an idle stream; a
// `reconnect` event goes out before the server closes one (shutdown, maximum age, slow reader, and
// the revocation of the token or API key that opened it, heard on every instance as a change notice).
//
// Built for many idle connections: a connection is one small object (no closures, no timers of
// its own); one sweep per instance sends heartbeats (one shared frame per beat), closes streams at
// their maximum age and renews the streams' leases (the cross-instance per-caller limit,
// ./stream-slots.ts); an event's frame is encoded once and the same bytes go to every subscriber.

const REPLAY_BATCH = 500;
/** A reader this far behind (bytes queued) is closed with `reconnect`; it resumes from the log. */
const MAX_QUEUED_BYTES = 1024 * 1024;
/** Live batches held back while a stream replays; past this many it is closed with `reconnect` (slow_reader). */
const MAX_HELD_BATCHES = 256;
export const RETRY_HINT_MS = 3000;
/** How far back a stream replays (spec: `since` replays up to 24 h back), with `since` or with Last-Event-ID. */
export const MAX_REPLAY_MS = 24 * 60 * 60 * 1000;
const MAX_SWEEP_MS = 1000;

export interface StreamRequest {
  viewer: Viewer;
  /** Names to send; null for all. */
  events: ReadonlySet<EventName> | null;
  /** Resume after this log position (Last-Event-ID); one older than MAX_REPLAY_MS resumes MAX_REPLAY_MS back. */
  after: bigint | null;
  /** Replay from this time (when no Last-Event-ID), at most MAX_REPLAY_MS back. */
  since: Date | null;
  /** The token or API key that opened the stream: revoking it closes the stream. */
  credentialId: string | null;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}

const encoder = new TextEncoder();
const OPENING = encoder.encode(`retry: ${RETRY_HINT_MS}\n: connected\n\n`);

// The encoded SSE frame of a log event, made once and shared by every connection that sends it.
const eventFrames = new WeakMap<LoggedEvent, Uint8Array>();
function eventFrame(event: LoggedEvent): Uint8Array {
  let bytes = eventFrames.get(event);
  if (!bytes) eventFrames.set(event, (bytes = frame({ id: event.id, event: event.name, data: envelope(event) })));
  return bytes;
}

function frame(fields: { id?: bigint; event: string; data: unknown }): Uint8Array {
  const lines = [];
  if (fields.id !== undefined) lines.push(`id: ${fields.id}`);
  lines.push(`event: ${fields.event}`, `data: ${JSON.stringify(fields.data)}`, '', '');
  return encoder.encode(lines.join('\n'));
}

/** A credential that no longer opens streams: revoked, deleted or (a token) expired. */
async function invalidCredentials(ids: string[]): Promise<Set<string>> {
  const valid = await database().sql.query<{ id: string }>(
    `SELECT id::text AS id FROM access_tokens WHERE id = ANY ($1::uuid[]) AND revoked_at IS NULL AND expires_at > now()
     UNION ALL
     SELECT id::text FROM api_keys WHERE id = ANY ($1::uuid[]) AND revoked_at IS NULL`,
    [ids],
  );
  const live = new Set(valid.map((row) => row.id));
  return new Set(ids.filter((id) => !live.has(id)));
}

/** How long a revocation notice makes newly opened streams check their credential once more. */
const RECENT_REVOCATION_MS = 60_000;

/** The instance's open streams, their sweep and their leases. */
class Streams {
  readonly byWallet = new Map<string, Set<StreamConnection>>();
  readonly byCredential = new Map<string, Set<StreamConnection>>();
  /** Credentials named by recent notices (null: every credential), with when they were heard. */
  readonly recentNotices = new Map<string | null, number>();
  readonly all = new Set<StreamConnection>();
  /** Streams past the open-stream check that are not in `all` yet (their lease is being taken). */
  opening = 0;
  readonly slots: StreamSlots;
  private timer: ReturnType<typeof setInterval> | null = null;
  private lastRenew = Date.now();
  readonly heartbeatMs: number;
  readonly maxAgeMs: number;

  constructor(runtime: Runtime) {
    this.slots = streamSlots(runtime.database, runtime.redis, runtime.redisFallbacks);
    this.heartbeatMs = runtime.config.STREAM_HEARTBEAT_MS;
    this.maxAgeMs = runtime.config.STREAM_MAX_AGE_MS;
  }

  add(connection: StreamConnection): void {
    this.all.add(connection);
    let set = this.byWallet.get(connection.wallet);
    if (!set) this.byWallet.set(connection.wallet, (set = new Set()));
    set.add(connection);
    if (connection.credentialId) {
      let same = this.byCredential.get(connection.credentialId);
      if (!same) this.byCredential.set(connection.credentialId, (same = new Set()));
      same.add(connection);
    }
    if (!this.timer) {
      this.timer = setInterval(() => this.sweep(), Math.min(this.heartbeatMs, MAX_SWEEP_MS));
      this.timer.unref();
    }
  }

  remove(connection: StreamConnection): void {
    this.all.delete(connection);
    const set = this.byWallet.get(connection.wallet);
    if (set) {
      set.delete(connection);
      if (set.size === 0) this.byWallet.delete(connection.wallet);
    }
    const same = connection.credentialId ? this.byCredential.get(connection.credentialId) : undefined;
    if (same) {
      same.delete(connection);
      if (same.size === 0) this.byCredential.delete(connection.credentialId!);
    }
    if (connection.lease) {
      this.slots
        .release(connection.wallet, connection.lease)
        .catch((error) => log.warn({ err: error }, 'stream lease release failed'));
    }
    if (this.all.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** Heartbeats (one frame for all that are due), maximum age, lease renewal. */
  sweep(now = Date.now()): void {
    let beat: Uint8Array | null = null;
    const beatBefore = now - this.heartbeatMs;
    const bornBefore = now - this.maxAgeMs;
    for (const connection of this.all) {
      if (connection.openedAt <= bornBefore) {
        connection.close('max_age');
      } else if (connection.lastBeat <= beatBefore) {
        beat ??= frame({ event: 'heartbeat', data: { time: new Date(now).toISOString() } });
        connection.lastBeat = now;
        connection.write(beat);
      }
    }
    if (now - this.lastRenew >= LEASE_RENEW_MS) {
      this.lastRenew = now;
      const open = [...this.all].filter((c) => c.lease).map((c) => ({ wallet: c.wallet, lease: c.lease! }));
      this.slots.renew(open).catch((error) => log.warn({ err: error }, 'stream lease renewal failed'));
    }
  }

  /**
   * A credential change notice (server/core/changes.ts; from any instance): the streams opened with
   * that credential (every credential for a null id) check it in the database, and those whose
   * credential no longer holds are closed with `reconnect` (reason credential_revoked).
   */
  async credentialChanged(id: string | null): Promise<void> {
    const now = Date.now();
    this.recentNotices.set(id, now);
    for (const [key, at] of this.recentNotices) if (at < now - RECENT_REVOCATION_MS) this.recentNotices.delete(key);
    await this.recheck(id === null ? [...this.byCredential.keys()] : this.byCredential.has(id) ? [id] : []);
  }

  /** Closes the streams of those `ids` that no longer hold. */
  async recheck(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    for (const id of await invalidCredentials(ids)) {
      for (const connection of [...(this.byCredential.get(id) ?? [])]) connection.close('credential_revoked');
    }
  }

  /** True when a notice about this credential came recently (it may predate the stream's registration). */
  recentlyChanged(id: string): boolean {
    return this.recentNotices.has(id) || this.recentNotices.has(null);
  }

  /** Set by closeAll (shutdown): a stream opened from now on gets `reconnect` once it has replayed. */
  closing: string | null = null;

  closeAll(reason: string): void {
    this.closing = reason;
    for (const connection of [...this.all]) connection.close(reason);
  }
}

const streams = sharedState('stream.connections', () => {
  const runtime = currentRuntime();
  const value = new Streams(runtime);
  const stop = runtime.changes.on('credential', (notice) => {
    value.credentialChanged(notice.id).catch((error) => log.warn({ err: error }, 'stream credential check failed'));
  });
  runtime.onClose(() => {
    stop();
    value.closeAll('shutdown');
  });
  return value;
});

/** Open streams of one wallet on this instance. */
export function openStreamCount(wallet: string): number {
  return streams().byWallet.get(wallet.toLowerCase())?.size ?? 0;
}

/** Sends `reconnect` to every open stream and closes it (shutdown). */
export function closeAllStreams(reason = 'shutdown'): void {
  // Also when none is open yet: a stream opened later (on a connection still open) is told to reconnect.
  streams().closeAll(reason);
}

/** One open stream: what it may see, where it is in the log, and its response body. */
class StreamConnection implements HubSubscriber {
  controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  closed = false;
  /** Live batches held back until the replay has caught up; null once live. */
  buffered: LoggedEvent[][] | null = [];
  lastSent = 0n;
  lastBeat: number;
  readonly openedAt: number;
  lease: string | null = null;

  constructor(
    readonly owner: Streams,
    readonly hub: EventHub,
    readonly wallet: string,
    readonly viewer: Viewer,
    readonly filter: ReadonlySet<EventName> | null,
    readonly credentialId: string | null,
  ) {
    this.openedAt = this.lastBeat = Date.now();
  }

  deliver(events: LoggedEvent[]): void {
    if (!this.buffered) this.send(events);
    else if (this.buffered.length < MAX_HELD_BATCHES) this.buffered.push(events);
    else this.close('slow_reader');
  }

  send(events: LoggedEvent[]): void {
    for (const event of events) {
      if (this.closed) return;
      if (event.id <= this.lastSent) continue;
      this.lastSent = event.id;
      if (this.filter && !this.filter.has(event.name)) continue;
      if (!canSee(event, this.viewer)) continue;
      this.write(eventFrame(event));
    }
    if (!this.closed && (this.controller?.desiredSize ?? 0) < -MAX_QUEUED_BYTES) this.close('slow_reader');
  }

  write(chunk: Uint8Array): void {
    if (this.closed || !this.controller) return;
    try {
      this.controller.enqueue(chunk);
    } catch {
      this.cleanup();
    }
  }

  close(reason: string): void {
    if (this.closed) return;
    const last = this.lastSent > 0n ? String(this.lastSent) : null;
    this.write(frame({ event: 'reconnect', data: { reason, last_event_id: last } }));
    const controller = this.controller;
    this.cleanup();
    try {
      controller?.close();
    } catch {
      /* already closed */
    }
  }

  cleanup(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffered = null;
    this.hub.unsubscribe(this);
    this.owner.remove(this);
  }

  /** Replays the log from the cursor, then the held-back live batches, then goes live. */
  async replay(): Promise<void> {
    const sql = database().sql;
    for (;;) {
      if (this.closed) return;
      const events = await readEventsAfter(sql, this.lastSent, REPLAY_BATCH);
      this.send(events);
      if (events.length < REPLAY_BATCH) break;
    }
    const held = this.buffered ?? [];
    this.buffered = null;
    for (const events of held) this.send(events);
  }
}

/**
 * Where a stream with Last-Event-ID resumes: after it, with no gap, while the event that follows it is at most
 * MAX_REPLAY_MS old (one indexed read); else MAX_REPLAY_MS back, as `since` would. Without the bound, Last-Event-ID
 * 0 replayed the whole log: a million events read in batches for one caller's stream, from any signed-in caller.
 */
async function resumeAfter(after: bigint): Promise<bigint> {
  const { sql } = database();
  const [next] = await sql.query<{ created_at: Date }>('SELECT created_at FROM events WHERE id > $1 ORDER BY id LIMIT 1', [
    after.toString(),
  ]);
  const oldest = new Date(Date.now() - MAX_REPLAY_MS);
  if (!next || new Date(next.created_at) >= oldest) return after;
  const floor = await cursorSince(sql, oldest);
  return floor > after ? floor : after;
}

/** Opens the stream: checks the per-caller limit across instances, then returns the SSE response. */
export async function openStream(request: StreamRequest): Promise<Response> {
  const { config } = currentRuntime();
  const wallet = request.viewer.wallet.toLowerCase();
  const owner = streams();
  // The instance's bound on open streams (memory and file descriptors): past it, 503 and come back later.
  if (owner.all.size + owner.opening >= config.STREAM_MAX_OPEN) {
    throw new ApiError(
      'service_unavailable',
      'This instance holds as many open streams as it allows; retry shortly',
      { limit: config.STREAM_MAX_OPEN },
      { 'Retry-After': String(Math.ceil(RETRY_HINT_MS / 1000) * 2) },
    );
  }
  owner.opening++;
  let lease: string | null;
  try {
    lease = await owner.slots.acquire(wallet, config.STREAM_MAX_PER_CALLER);
  } finally {
    owner.opening--;
  }
  if (!lease) {
    throw new ApiError(
      'rate_limited',
      `At most ${config.STREAM_MAX_PER_CALLER} open streams per caller; close one first`,
      { limit: config.STREAM_MAX_PER_CALLER },
      { 'Retry-After': '5' },
    );
  }
  const hub = eventHub();
  const connection = new StreamConnection(owner, hub, wallet, request.viewer, request.events, request.credentialId);
  connection.lease = lease;
  owner.add(connection);
  let cursor: bigint | null;
  try {
    // A revocation heard between authentication and now found no stream to close: check once more.
    if (request.credentialId && owner.recentlyChanged(request.credentialId)) {
      const invalid = await invalidCredentials([request.credentialId]);
      if (invalid.size > 0) throw new ApiError('unauthorized', 'The credential was revoked');
    }
    await hub.ready;
    if (request.after !== null) cursor = await resumeAfter(request.after);
    else if (request.since) {
      const oldest = Date.now() - MAX_REPLAY_MS;
      cursor = await cursorSince(database().sql, new Date(Math.max(request.since.getTime(), oldest)));
    } else cursor = null;
  } catch (error) {
    connection.cleanup();
    throw error;
  }

  // Live events are held back until the replay has caught up, then flow directly.
  hub.subscribe(connection);
  connection.lastSent = cursor ?? hub.head;

  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        connection.controller = controller;
        controller.enqueue(OPENING);
      },
      cancel() {
        connection.cleanup();
      },
    },
    { highWaterMark: MAX_QUEUED_BYTES * 4, size: (chunk) => chunk.byteLength },
  );
  if (request.signal.aborted) connection.cleanup();
  else request.signal.addEventListener('abort', () => connection.cleanup(), { once: true });

  connection.replay().then(
    () => {
      if (owner.closing) connection.close(owner.closing);
    },
    () => connection.close('error'),
  );

  return new Response(stream, {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    },
  });
}
