/**
 * A fixed one-minute window per key (a client address), in this process's memory: the first, cheap line
 * against a flood of hand-over calls. With several processes an address gets up to `limit` per process;
 * the issue endpoint also counts its tokens in the database, which holds across processes.
 */
export class RateWindow {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly maxKeys = 50_000,
    private readonly windowMs = 60_000,
  ) {}

  /** Counts a call; returns 0 when it is allowed, else the seconds until the key's window ends. */
  hit(key: string, nowMs: number): number {
    if (this.limit === 0) return 0;
    let w = this.windows.get(key);
    if (!w || nowMs - w.start >= this.windowMs) {
      if (!w && this.windows.size >= this.maxKeys) this.prune(nowMs);
      w = { start: nowMs, count: 0 };
      this.windows.set(key, w);
    }
    w.count += 1;
    return w.count > this.limit ? Math.max(1, Math.ceil((w.start + this.windowMs - nowMs) / 1000)) : 0;
  }

  // Past windows go first; if every key is live (a flood from very many addresses), all are forgotten,
  // which lets each address start over rather than letting the map grow without bound.
  private prune(nowMs: number): void {
    for (const [key, w] of this.windows) if (nowMs - w.start >= this.windowMs) this.windows.delete(key);
    if (this.windows.size >= this.maxKeys) this.windows.clear();
  }
}
