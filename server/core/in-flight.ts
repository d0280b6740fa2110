// Work a runtime started and must let finish before it closes its database (scheduled job runs, webhook
// passes): closing the database under a statement in flight leaves PGlite's one connection held by a
// transaction nobody ends, and every later statement, the close's own included, waits forever.

/** How long stopping scheduled work waits for what is in flight (within server.ts's STOP_WITHIN_MS of a shutdown). */
export const STOP_WAIT_MS = 5_000;

/** The promises in flight of one kind of work; `settled` waits for them, at most `ms`. */
export class InFlight {
  private readonly running = new Set<Promise<unknown>>();

  /** Tracks `work` until it settles; returns it. */
  add<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    const done = () => void this.running.delete(work);
    work.then(done, done);
    return work;
  }

  /** Resolves once everything in flight now has settled, or after `ms`, whichever comes first. */
  async settled(ms: number): Promise<void> {
    if (this.running.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      timer.unref();
    });
    await Promise.race([Promise.allSettled([...this.running]), limit]);
    clearTimeout(timer);
  }
}
