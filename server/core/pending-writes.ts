// Writes whose request was answered before they committed (docs/spec-decisions.md, What a call waits for): a free
// call's record and event, and a call's partnership edge, go to the database just after the caller has its answer.
// Until they commit, the reads this process serves wait for them (every declared GET through runDeclared, every UI
// query through the tRPC middleware; at most READ_WAIT_MS, so a stuck write cannot hold readers), so nobody reads
// around a call this process answered. Another process (a cluster worker, an instance) sees them once committed,
// a fraction of a millisecond to a few milliseconds later, as it sees any change. The runtime waits for them before
// it closes the database (within the shutdown's limit).

/** The longest a read waits for the writes pending when it arrived; past it the read goes on without them. */
export const READ_WAIT_MS = 250;

/** Past this many writes pending, a request waits for its own write before it is answered (backpressure). */
export const MAX_PENDING = 2_000;

export class PendingWrites {
  /** The sequence number of the last write held. */
  #issued = 0;
  /** Every write up to this number has settled. */
  #done = 0;
  /** Writes past `#done` that settled before an earlier one. */
  readonly #settledEarly = new Set<number>();
  /** Readers waiting, in arrival order (their `upTo` never decreases). */
  #waiters: { upTo: number; resolve: () => void }[] = [];
  /** What sends writes held back for a group (a window) at once, because a reader waits. */
  readonly #flushers = new Set<() => void>();

  constructor(private readonly readWaitMs = READ_WAIT_MS) {}

  /** How many writes are pending. */
  get size(): number {
    return this.#issued - this.#done;
  }

  /**
   * Registers a write in flight; its failure is its writer's to report (the wait ends either way). `flush` sends it
   * at once if it waits for a group. Returns a promise when MAX_PENDING writes are pending: the caller waits for it.
   */
  hold(write: Promise<unknown>, flush?: () => void): Promise<void> | undefined {
    const seq = ++this.#issued;
    if (flush) this.#flushers.add(flush);
    const settled = write.then(
      () => this.#settle(seq),
      () => this.#settle(seq),
    );
    return this.size > MAX_PENDING ? settled : undefined;
  }

  /**
   * Undefined when nothing is pending (no await needed), else settles once every write pending now has, or after
   * `atMostMs`.
   */
  settled(atMostMs = Number.POSITIVE_INFINITY): Promise<void> | undefined {
    if (this.#done === this.#issued) return undefined;
    for (const flush of this.#flushers) flush();
    const upTo = this.#issued;
    return new Promise<void>((resolve) => {
      const waiter = { upTo, resolve };
      this.#waiters.push(waiter);
      if (!Number.isFinite(atMostMs)) return;
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((each) => each !== waiter);
        resolve();
      }, atMostMs);
      timer.unref();
      waiter.resolve = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** What a read awaits first: the writes pending now, for READ_WAIT_MS (or the constructor's figure) at most. */
  beforeRead(): Promise<void> | undefined {
    return this.settled(this.readWaitMs);
  }

  /** Settles once nothing is pending, including writes held while it waits. */
  async drain(): Promise<void> {
    for (let pending = this.settled(); pending; pending = this.settled()) await pending;
  }

  #settle(seq: number): void {
    this.#settledEarly.add(seq);
    while (this.#settledEarly.delete(this.#done + 1)) this.#done++;
    if (this.#done === this.#issued) this.#flushers.clear();
    while (this.#waiters.length > 0 && this.#waiters[0]!.upTo <= this.#done) this.#waiters.shift()!.resolve();
  }
}
