import { database } from '../core/db';
import { log } from '../core/log';
import { currentRuntime } from '../core/runtime';
import { sharedState } from '../core/shared-state';
import { headEventId, readEventsAfter, type LoggedEvent } from '../events/log';

// One reader of the event log per instance, shared by every stream connection: it follows the
// log by id (woken by change notices, and polling as a fallback since correctness never depends
// on a wake-up) and hands each batch to every subscriber in log order.

const BATCH = 1000;
const POLL_MS = 1000;

/** A receiver of the hub's batches (an open stream). */
export interface HubSubscriber {
  deliver(events: LoggedEvent[]): void;
}

export class EventHub {
  /** The last log position handed to subscribers. */
  head = 0n;
  readonly ready: Promise<void>;
  private readonly subscribers = new Set<HubSubscriber>();
  private reading = false;
  private again = false;
  private closed = false;
  private readonly stops: (() => void)[] = [];

  constructor() {
    this.ready = headEventId(database().sql).then((head) => {
      this.head = head;
    });
    const { changes } = currentRuntime();
    this.stops.push(changes.on('event', () => void this.pull()));
    const timer = setInterval(() => void this.pull(), POLL_MS);
    timer.unref();
    this.stops.push(() => clearInterval(timer));
  }

  get size(): number {
    return this.subscribers.size;
  }

  /** Receives every batch read after this call (synchronously consistent with `head`). */
  subscribe(subscriber: HubSubscriber): void {
    this.subscribers.add(subscriber);
  }

  unsubscribe(subscriber: HubSubscriber): void {
    this.subscribers.delete(subscriber);
  }

  /** Reads what is new in the log and hands it out; concurrent calls coalesce. */
  async pull(): Promise<void> {
    if (this.closed) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    try {
      await this.ready;
      for (;;) {
        this.again = false;
        const events = await readEventsAfter(database().sql, this.head, BATCH);
        if (events.length > 0) {
          this.head = events[events.length - 1]!.id;
          for (const subscriber of this.subscribers) {
            try {
              subscriber.deliver(events);
            } catch (error) {
              log.warn({ err: error }, 'stream subscriber failed');
            }
          }
        }
        if (events.length < BATCH && !this.again) break;
      }
    } catch (error) {
      log.warn({ err: error }, 'event hub read failed');
    } finally {
      this.reading = false;
    }
  }

  close(): void {
    this.closed = true;
    for (const stop of this.stops) stop();
    this.subscribers.clear();
  }
}

/** The instance's hub, started on first use and stopped with the runtime. */
export const eventHub = sharedState('stream.hub', () => {
  const hub = new EventHub();
  currentRuntime().onClose(() => hub.close());
  return hub;
});
