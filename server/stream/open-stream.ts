import { database } from '../core/db';
import { ApiError } from '../core/errors';
import { currentRuntime } from '../core/runtime';
import { sharedState } from '../core/shared-state';
import type { EventName } from '../events/emit';
import { canSee, cursorSince, envelope, readEventsAfter, type LoggedEvent, type Viewer } from '../events/log';
import { eventHub } from './hub';

// One SSE connection (spec: Events, Event stream): replay from the log after Last-Event-ID or
// `since`, then live events from the instance's hub, without gap or duplicate (ids are commit
// ordered; see server/events/log.ts). Heartbeats keep proxies from closing an idle stream; a
// `reconnect` event goes out before the server closes one (shutdown, maximum age, slow reader).

const REPLAY_BATCH = 500;
/** A reader this far behind (bytes queued) is closed with `reconnect`; it resumes from the log. */
const MAX_QUEUED_BYTES = 1024 * 1024;
export const RETRY_HINT_MS = 3000;

export interface StreamRequest {
  viewer: Viewer;
  /** Names to send; null for all. */
  events: ReadonlySet<EventName> | null;
  /** Resume after this log position (Last-Event-ID). */
  after: bigint | null;
  /** Replay from this time (when no Last-Event-ID). */
  since: Date | null;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}

interface Connection {
  wallet: string;
  close(reason: string): void;
}

const connections = sharedState('stream.connections', () => {
  const map = new Map<string, Set<Connection>>();
  currentRuntime().onClose(() => {
    for (const set of map.values()) for (const connection of [...set]) connection.close('shutdown');
  });
  return map;
});

/** Open streams of one wallet on this instance. */
export function openStreamCount(wallet: string): number {
  return connections().get(wallet.toLowerCase())?.size ?? 0;
}

/** Sends `reconnect` to every open stream and closes it (shutdown). */
export function closeAllStreams(reason = 'shutdown'): void {
  if (!currentRuntime().state.has('stream.connections')) return;
  for (const set of connections().values()) for (const connection of [...set]) connection.close(reason);
}

const encoder = new TextEncoder();

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

/** Opens the stream: checks the per-caller limit, then returns the SSE response. */
export async function openStream(request: StreamRequest): Promise<Response> {
  const { config } = currentRuntime();
  const wallet = request.viewer.wallet;
  if (openStreamCount(wallet) >= config.STREAM_MAX_PER_CALLER) {
    throw new ApiError(
      'rate_limited',
      `At most ${config.STREAM_MAX_PER_CALLER} open streams per caller; close one first`,
      { limit: config.STREAM_MAX_PER_CALLER },
      { 'Retry-After': '5' },
    );
  }
  const hub = eventHub();
  await hub.ready;
  const sql = database().sql;
  let cursor = request.after ?? (request.since ? await cursorSince(sql, request.since) : null);

  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  let live = false;
  let lastSent = 0n;
  const buffered: LoggedEvent[] = [];
  const timers: ReturnType<typeof setTimeout>[] = [];
  let unsubscribe: () => void = () => {};

  const map = connections();
  const set = map.get(wallet) ?? new Set<Connection>();
  map.set(wallet, set);

  const cleanup = () => {
    closed = true;
    unsubscribe();
    timers.forEach(clearTimeout);
    set.delete(connection);
    if (set.size === 0 && map.get(wallet) === set) map.delete(wallet);
  };
  const write = (chunk: Uint8Array): void => {
    if (closed) return;
    try {
      controller.enqueue(chunk);
    } catch {
      cleanup();
    }
  };
  const connection: Connection = {
    wallet,
    close(reason) {
      if (closed) return;
      write(frame({ event: 'reconnect', data: { reason, last_event_id: lastSent > 0n ? String(lastSent) : null } }));
      cleanup();
      try {
        controller.close();
      } catch {
        /* already closed */
      }
    },
  };
  set.add(connection);

  const send = (events: LoggedEvent[]): void => {
    for (const event of events) {
      if (closed) return;
      if (event.id <= lastSent) continue;
      lastSent = event.id;
      if (request.events && !request.events.has(event.name)) continue;
      if (!canSee(event, request.viewer)) continue;
      write(eventFrame(event));
    }
    if (!closed && (controller.desiredSize ?? 0) < -MAX_QUEUED_BYTES) connection.close('slow_reader');
  };

  // Live events are buffered until the replay has caught up, then flow directly.
  unsubscribe = hub.subscribe((events) => (live ? send(events) : buffered.push(...events)));
  cursor ??= hub.head;
  lastSent = cursor;

  const replay = async () => {
    for (;;) {
      if (closed) return;
      const events = await readEventsAfter(sql, lastSent, REPLAY_BATCH);
      send(events);
      if (events.length < REPLAY_BATCH) break;
    }
    send(buffered.splice(0));
    live = true;
  };

  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        write(encoder.encode(`retry: ${RETRY_HINT_MS}\n: connected\n\n`));
      },
      cancel() {
        cleanup();
      },
    },
    { highWaterMark: MAX_QUEUED_BYTES * 4, size: (chunk) => chunk.byteLength },
  );

  const beat = () => {
    if (closed) return;
    write(frame({ event: 'heartbeat', data: { time: new Date().toISOString() } }));
    timers[0] = setTimeout(beat, config.STREAM_HEARTBEAT_MS);
  };
  timers[0] = setTimeout(beat, config.STREAM_HEARTBEAT_MS);
  timers[1] = setTimeout(() => connection.close('max_age'), config.STREAM_MAX_AGE_MS);
  request.signal.addEventListener('abort', () => cleanup(), { once: true });

  replay().catch(() => connection.close('error'));

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
