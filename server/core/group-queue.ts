// Group commit's queue (ledger-batch.ts, record-free-calls.ts): items submitted while statements are in flight
// wait and go together as the next group. Items submitted in the same turn of the event loop go together;
// nothing waits when nothing is in flight.

/** An item waiting in a group, with the callbacks that settle its submitter's promise. */
export interface Queued<I, R> {
  item: I;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

export class GroupQueue<I, R> {
  private queue: Queued<I, R>[] = [];
  private inFlight = 0;
  private scheduled = false;

  /** `run` settles every item of the group it is given; at most `maxInFlight` groups of `maxItems` run at once. */
  constructor(
    private readonly limits: { maxInFlight: number; maxItems: number },
    private readonly run: (group: Queued<I, R>[]) => Promise<void>,
  ) {}

  submit(item: I): Promise<R> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.limits.maxInFlight || this.queue.length === 0) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      while (this.inFlight < this.limits.maxInFlight && this.queue.length > 0) {
        const group = this.queue.splice(0, this.limits.maxItems);
        this.inFlight++;
        void this.run(group).finally(() => {
          this.inFlight--;
          this.schedule();
        });
      }
    });
  }
}
