// Writes whose request was answered before they committed (docs/spec-decisions.md, What a call waits for): a free
// call's record and event, and a call's partnership edge, go to the database just after the caller has its answer.
// Until they commit, the reads this process serves wait for them (every declared GET through runDeclared, every UI
// query through the tRPC middleware; at most READ_WAIT_MS, so a stuck write cannot hold readers), so nobody reads
// around a call this process answered. Another process (a cluster worker, an instance) sees them once committed,
// a fraction of a millisecond to a few milliseconds later, as it sees any change. The runtime waits for them before
// it closes the database (within the shutdown's limit).

import { log } from './log';

/** The longest a read waits for the writes pending when it arrived; past it the read goes on without them. */
export const READ_WAIT_MS = 250;

/** Past this many writes in flight, a request waits for its own write before it is answered (backpressure). */
export const MAX_PENDING = 2_000;

/**
 * A write in flight for longer than this no longer counts as pending (logged once): a statement stuck on a lock
 * must not make every later read wait, nor keep the process from closing.
 */
export const STUCK_MS = 30_000;

interface Waiter {
  upTo: number;
  resolve: () => void;
}

export class PendingWrites {
  /** The sequence number of the last write held. */
  #issued = 0;
  /** The writes in flight: sequence number to when it was held, oldest first (a Map keeps insertion order). */
  readonly #open = new Map<number, number>();
  /** Readers waiting, in arrival order (their `upTo` never decreases). */
  #waiters: Waiter[] = [];
  /** What sends writes held back for a group (a window) at once, because a reader waits. */
  readonly #flushers = new Set<() => void>();

  constructor(private readonly readWaitMs = READ_WAIT_MS) {}

  /** How many writes are in flight. */
  get size(): number {
    return this.#open.size;
  }

  /**
   * Registers a write in flight; its failure is its writer's to report (the wait ends either way). `flush` sends it
   * at once if it waits for a group. Returns a promise when more than MAX_PENDING writes are in flight: the caller
   * waits for it.
   */
  hold(write: Promise<unknown>, flush?: () => void): Promise<void> | undefined {
    this.#dropStuck();
    const seq = ++this.#issued;
    this.#open.set(seq, performance.now());
    if (flush) this.#flushers.add(flush);
    const settled = write.then(
      () => this.#settle(seq),
      () => this.#settle(seq),
    );
    return this.#open.size > MAX_PENDING ? settled : undefined;
  }

  /**
   * Undefined when nothing is pending (no await needed), else settles once every write pending now has, or after
   * `atMostMs`.
   */
  settled(atMostMs = Number.POSITIVE_INFINITY): Promise<void> | undefined {
    this.#dropStuck();
    if (this.#open.size === 0) return undefined;
    for (const flush of this.#flushers) flush();
    const upTo = this.#issued;
    return new Promise<void>((resolve) => {
      if (!Number.isFinite(atMostMs)) {
        this.#waiters.push({ upTo, resolve });
        return;
      }
      const timer = setTimeout(resolve, atMostMs);
      timer.unref();
      this.#waiters.push({
        upTo,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  /** What a read awaits first: the writes pending now, for READ_WAIT_MS (or the constructor's figure) at most. */
  beforeRead(): Promise<void> | undefined {
    return this.settled(this.readWaitMs);
  }

  /** Settles once nothing is pending, including writes held while it waits, or after `atMostMs`. */
  async drain(atMostMs = Number.POSITIVE_INFINITY): Promise<void> {
    const until = performance.now() + atMostMs;
    for (let pending = this.settled(atMostMs); pending; pending = this.settled(until - performance.now())) {
      await pending;
      if (performance.now() >= until) break;
    }
    if (this.#open.size > 0) log.error({ writes: this.#open.size }, 'writes answered before they committed were left pending');
  }

  /** Every write held up to this number has settled (or was dropped as stuck). */
  #lowWater(): number {
    const oldest = this.#open.keys().next();
    return oldest.done ? this.#issued : oldest.value - 1;
  }

  #settle(seq: number): void {
    if (!this.#open.delete(seq)) return;
    if (this.#open.size === 0) this.#flushers.clear();
    const done = this.#lowWater();
    while (this.#waiters.length > 0 && this.#waiters[0]!.upTo <= done) this.#waiters.shift()!.resolve();
  }

  #dropStuck(): void {
    const oldest = this.#open.entries().next();
    if (oldest.done || performance.now() - oldest.value[1] < STUCK_MS) return;
    log.error({ pending: this.#open.size }, `a write answered before it committed is still in flight after ${STUCK_MS} ms`);
    this.#settle(oldest.value[0]);
  }
}
