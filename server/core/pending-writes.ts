// Writes whose request was answered before they committed (docs/spec-decisions.md, What a call waits for): a free
// call's record and event, and a call's partnership edge, go to the database just after the caller has its answer.
// Until they commit, a read this process serves waits for them (runDeclared, every GET), so nobody reads around a
// call this instance answered; another instance sees them once committed, milliseconds later. The runtime waits
// for them before it closes the database (SIGTERM loses none).

export class PendingWrites {
  readonly #pending = new Set<Promise<void>>();

  /** Registers a write in flight; its failure is its writer's to report (the wait ends either way). */
  hold(write: Promise<unknown>): void {
    const settled = write.then(
      () => {},
      () => {},
    );
    this.#pending.add(settled);
    void settled.then(() => this.#pending.delete(settled));
  }

  /** Undefined when nothing is pending (no await needed), else settles once every write pending now has. */
  settled(): Promise<void> | undefined {
    if (this.#pending.size === 0) return undefined;
    return Promise.all(this.#pending).then(() => {});
  }

  /** Settles once nothing is pending, including writes held while it waits. */
  async drain(): Promise<void> {
    for (let pending = this.settled(); pending; pending = this.settled()) await pending;
  }
}
