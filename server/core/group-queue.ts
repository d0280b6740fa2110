// Group commit's queue (ledger-batch.ts, record-free-calls.ts): items submitted while statements are in flight
// wait and go together as the next group. Items submitted in the same turn of the event loop go together;
// nothing waits when nothing is in flight, unless a window is set: then a group waits until its oldest item is
// `windowMs` old, the group is full or `flush()` is called (for writes answered before they commit, where fewer
// statements matter more than latency: core/pending-writes.ts; a reader waiting for them flushes).

/** An item waiting in a group, with the callbacks that settle its submitter's promise. */
export interface Queued<I, R> {
  item: I;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

export interface GroupLimits {
  maxInFlight: number;
  maxItems: number;
  /** How long a group that is not full may wait for more items, from its oldest item's arrival (default 0). */
  windowMs?: number;
}

export class GroupQueue<I, R> {
  private queue: Queued<I, R>[] = [];
  private inFlight = 0;
  private scheduled = false;
  private timer: NodeJS.Timeout | null = null;
  /** When the oldest item waiting arrived (performance.now()). */
  private oldestAt = 0;

  /** `run` settles every item of the group it is given; at most `maxInFlight` groups of `maxItems` run at once. */
  constructor(
    private readonly limits: GroupLimits,
    private readonly run: (group: Queued<I, R>[]) => Promise<void>,
  ) {}

  submit(item: I): Promise<R> {
    return new Promise((resolve, reject) => {
      if (this.queue.length === 0) this.oldestAt = performance.now();
      this.queue.push({ item, resolve, reject });
      // A full group does not wait out its window.
      if (this.timer && this.queue.length >= this.limits.maxItems) this.go();
      else this.schedule();
    });
  }

  /** Sends a group waiting out its window now (a reader waits for it). */
  flush(): void {
    if (this.timer) this.go();
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.limits.maxInFlight || this.queue.length === 0) return;
    this.scheduled = true;
    const wait = (this.limits.windowMs ?? 0) - (performance.now() - this.oldestAt);
    if (wait > 0 && this.queue.length < this.limits.maxItems) this.timer = setTimeout(() => this.go(), wait);
    else queueMicrotask(() => this.go());
  }

  private go(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.scheduled = false;
    while (this.inFlight < this.limits.maxInFlight && this.queue.length > 0) {
      const group = this.queue.splice(0, this.limits.maxItems);
      this.inFlight++;
      void this.run(group).finally(() => {
        this.inFlight--;
        this.schedule();
      });
    }
  }
}
