/** At most `size` holders at once; the others wait in order, each for a bounded time. */
export class Semaphore {
  private active = 0;
  private readonly waiting: { grant: () => void; timer: NodeJS.Timeout }[] = [];

  constructor(private readonly size: number) {}

  /** Resolves to a release function; rejects when no slot frees up within `timeoutMs`. */
  acquire(timeoutMs: number): Promise<() => void> {
    return new Promise((resolve, reject) => {
      const grant = () => {
        this.active++;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.active--;
          const next = this.waiting.shift();
          if (next) {
            clearTimeout(next.timer);
            next.grant();
          }
        });
      };
      if (this.active < this.size) return grant();
      const entry = {
        grant,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(entry), 1);
          reject(new Error(`no free slot within ${timeoutMs} ms`));
        }, timeoutMs),
      };
      this.waiting.push(entry);
    });
  }
}
