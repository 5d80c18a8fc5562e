import { randomInt } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { Limits } from '../config.js';
import type { Clock } from '../deps.js';

/**
 * Fixed-window counters kept in this process's memory: `hit(key)` counts and answers whether the key is
 * still within `max` in the current window. Windows are aligned to the clock (every key's window turns at
 * the same moment), so a key gets at most `max` per window and at most 2 × `max` across a boundary, like
 * any fixed-window limiter. State is per process: with N processes behind a load balancer a key gets at
 * most N × max per window (docs/consent-log.md, "Limits with several processes").
 *
 * Keys are kept as 31-bit hashes (seeded per process, so nobody can aim a collision at a given key) and
 * counts as small integers: a Map of small integers holds no per-entry objects, so the garbage collector
 * has nothing to trace. Keeping the key strings (about 250 bytes retained per consent, often the whole
 * request body behind a sliced ucid) made the heap grow by ~50 MB per 200,000 ucids and halved ingest
 * throughput (README "Memory and throughput"). Two keys that share a hash share a count,
 * which can only refuse early (2^31 slots: with 200,000 keys about one key in 10,000 shares).
 * The number of keys per window is bounded: when full, keys not yet seen in this window pass uncounted
 * until it turns (the same as dropping old windows; the other limits still apply).
 */
export class WindowLimiter {
  private counts = new Map<number, number>();
  private window = -1;
  private readonly seed = randomInt(0x7fffffff);

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

  /** Counts one hit of `key`: 0 when it is allowed, else the whole seconds until the window turns. */
  hit(key: string): number {
    if (this.max <= 0) return 0;
    const now = this.clock.now().getTime();
    const window = Math.floor(now / this.windowMs);
    if (window !== this.window) {
      this.window = window;
      this.counts = new Map();
    }
    const hash = hashKey(key, this.seed);
    const n = this.counts.get(hash) ?? 0;
    if (n >= this.max) return Math.max(1, Math.ceil(((window + 1) * this.windowMs - now) / 1000));
    if (n === 0 && this.counts.size >= this.maxKeys) return 0;
    this.counts.set(hash, n + 1);
    return 0;
  }

  /** Keys counted in the current window. */
  get size(): number {
    return this.counts.size;
  }
}

/**
 * Whether a key was seen within the last `windowMs`, as a sliding window: "a repeat within 60 s counts once"
 * holds across the minute's turn, where a fixed-window counter (above) would count a reload one second after the
 * turn again (a repeat widget load, a reloaded banner's display). Same keeping as WindowLimiter: seeded 31-bit
 * hashes mapped to small integers (the second, since this object was made, the key was last counted), in two
 * generations of one window each, so whatever was counted within the last window is in one of them and older
 * keys go with their generation. When the current generation is full, new keys count without being remembered
 * (a flood of distinct keys cannot make genuine repeats count less, only more).
 */
export class RecentKeys {
  private current = new Map<number, number>();
  private previous = new Map<number, number>();
  private generation = -1;
  private readonly seed = randomInt(0x7fffffff);
  private readonly since: number;

  constructor(
    private readonly windowMs: number,
    private readonly clock: Clock,
    private readonly maxKeys = 100_000,
  ) {
    this.since = clock.now().getTime();
  }

  /** True when `key` was not counted within the window: it is counted now. A window of 0 counts everything. */
  first(key: string): boolean {
    if (this.windowMs <= 0) return true;
    const now = this.clock.now().getTime();
    const generation = Math.floor(now / this.windowMs);
    if (generation !== this.generation) {
      this.previous = generation === this.generation + 1 ? this.current : new Map();
      this.current = new Map();
      this.generation = generation;
    }
    const hash = hashKey(key, this.seed);
    const last = this.current.get(hash) ?? this.previous.get(hash);
    // Milliseconds since this object was made would outgrow a small integer after 12 days; seconds do not.
    const at = Math.floor((now - this.since) / 1000);
    if (last !== undefined && (at - last) * 1000 < this.windowMs) return false;
    if (this.current.size < this.maxKeys) this.current.set(hash, at);
    return true;
  }
}

/** Seeded 32-bit FNV-1a of a string, as a non-negative small integer (31 bits). */
export function hashKey(key: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 1;
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
