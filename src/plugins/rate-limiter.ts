import { BlockList, isIP } from 'node:net';
import type { Limits } from '../config.js';
import type { Clock } from '../deps.js';

/**
 * Fixed-window counters kept in this process's memory: `hit(key)` counts and answers whether the key is
 * still within `max` per window. State is per process: with N processes behind a load balancer a key gets
 * at most N × max per window (docs/consent-log.md, "Limits with several processes"). The number of keys is
 * bounded; when full, expired windows are dropped, then the oldest ones (which can only let a key through
 * early, never refuse one wrongly).
 */
export class WindowLimiter {
  private readonly windows = new Map<string, { n: number; resetAt: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
    private readonly maxKeys = 100_000,
  ) {}

  /** Whether the limiter limits anything (a max of 0 switches it off). */
  get active(): boolean {
    return this.max > 0;
  }

  /** Counts one hit of `key`: 0 when it is allowed, else the whole seconds until its window resets. */
  hit(key: string): number {
    if (this.max <= 0) return 0;
    const now = this.clock.now().getTime();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (window) this.windows.delete(key);
      else if (this.windows.size >= this.maxKeys) this.makeRoom(now);
      window = { n: 0, resetAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    if (window.n >= this.max) return Math.max(1, Math.ceil((window.resetAt - now) / 1000));
    window.n++;
    return 0;
  }

  get size(): number {
    return this.windows.size;
  }

  private makeRoom(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    // Still full: drop the oldest tenth (insertion order is window start order).
    let drop = this.windows.size >= this.maxKeys ? Math.ceil(this.maxKeys / 10) : 0;
    for (const key of this.windows.keys()) {
      if (drop-- <= 0) break;
      this.windows.delete(key);
    }
  }
}

/**
 * The key of a source address for per-address limits: an IPv4 address as is, an IPv6 address by its /64
 * (one subscriber usually holds a whole /64, so per-address IPv6 limits would be no limit at all).
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (isIP(ip) !== 6) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = ip.includes('::') ? (tail === '' ? [] : tail.split(':')) : [];
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** RATE_LIMIT_EXEMPT as a lookup: addresses and CIDR ranges whose requests skip the per-address limits. */
export function exemptAddresses(limits: Limits): (ip: string) => boolean {
  if (limits.exempt.length === 0) return () => false;
  const list = new BlockList();
  for (const entry of limits.exempt) {
    const [address, bits] = entry.split('/') as [string, string | undefined];
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  // BlockList.check costs about 2.4 µs; the answers for recent addresses are remembered (a load generator or
  // a monitor asks with the same address over and over).
  const known = new Map<string, boolean>();
  return (ip) => {
    let exempt = known.get(ip);
    if (exempt === undefined) {
      const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
      const address = mapped ? mapped[1]! : ip;
      const family = isIP(address);
      exempt = family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
      if (known.size >= 10_000) known.clear();
      known.set(ip, exempt);
    }
    return exempt;
  };
}
