/**
 * Counts failed key attempts per client address in fixed one-minute windows and says when an address must
 * wait. In memory, per process: with N processes an address gets N × the limit, which still leaves a
 * generated 256-bit key unguessable; the point is to stop a guessing loop against a weak configured key
 * and to keep such a loop out of the logs. At most MAX_ADDRESSES are tracked (oldest dropped first).
 */
export class FailureThrottle {
  private readonly windows = new Map<string, { start: number; failures: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
  ) {}

  /** Seconds the address must still wait, or 0 when it may try. */
  retryAfter(address: string, now: number): number {
    const window = this.windows.get(address);
    if (window === undefined || now - window.start >= this.windowMs) return 0;
    return window.failures >= this.limit ? Math.ceil((window.start + this.windowMs - now) / 1000) : 0;
  }

  fail(address: string, now: number): void {
    const window = this.windows.get(address);
    if (window !== undefined && now - window.start < this.windowMs) {
      window.failures++;
      return;
    }
    this.windows.delete(address);
    if (this.windows.size >= MAX_ADDRESSES) this.windows.delete(this.windows.keys().next().value!);
    this.windows.set(address, { start: now, failures: 1 });
  }
}

const MAX_ADDRESSES = 10_000;
