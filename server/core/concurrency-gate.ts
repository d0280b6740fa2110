/**
 * At most `limit` tasks run at once; up to `queue` more wait their turn (first come, first served).
 * Past that, `run` refuses at once with `GateFullError` instead of queueing without bound, so a
 * burst of expensive requests costs a bounded share of the database pool and every other request
 * keeps its share (the caller answers 503 with Retry-After).
 */
export class GateFullError extends Error {
  constructor() {
    super('too many tasks in flight');
  }
}

export class ConcurrencyGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly limit: number,
    readonly queue: number,
  ) {}

  get inFlight(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) {
      if (this.waiting.length >= this.queue) throw new GateFullError();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
      // the finishing task handed its slot over: `running` already counts this one
    } else {
      this.running++;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
