/**
 * Figures counted in memory and written to the database every `intervalMs` (widget calls, ingest
 * figures), so a request costs no database write and several processes add up through atomic upserts.
 * Flushes never overlap (each waits for the one before), and `stop()` flushes once more, so nothing
 * counted is lost on SIGTERM. Subclasses say what one flush writes.
 */
export abstract class PeriodicFlush {
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(protected readonly intervalMs: number) {}

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  /** Writes what was counted since the last flush. */
  protected abstract write(): Promise<void>;
}
