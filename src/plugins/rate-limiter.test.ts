import { describe, expect, it } from 'vitest';
import type { Clock } from '../deps.js';
import { RecentKeys, WindowLimiter, hashKey } from './rate-limiter.js';

function clockAt(ms: number): Clock & { set(ms: number): void } {
  let now = ms;
  return { now: () => new Date(now), set: (next) => void (now = next) };
}

describe('WindowLimiter', () => {
  it('allows max hits per aligned window, answers the seconds until it turns, and starts over when it does', () => {
    const clock = clockAt(120_000 + 15_000); // 15 s into a minute
    const limiter = new WindowLimiter(2, 60_000, clock);
    expect(limiter.hit('a')).toBe(0);
    expect(limiter.hit('a')).toBe(0);
    expect(limiter.hit('a')).toBe(45);
    expect(limiter.hit('b')).toBe(0); // another key has its own count
    clock.set(120_000 + 59_500);
    expect(limiter.hit('a')).toBe(1); // never 0 while refused
    clock.set(180_000);
    expect(limiter.hit('a')).toBe(0);
    expect(limiter.size).toBe(1);
  });

  it('is off with a max of 0', () => {
    const limiter = new WindowLimiter(0, 60_000, clockAt(0));
    expect(limiter.active).toBe(false);
    for (let i = 0; i < 10; i++) expect(limiter.hit('a')).toBe(0);
    expect(limiter.size).toBe(0);
  });

  it('counts at most maxKeys keys per window; new keys then pass uncounted, counted ones stay limited', () => {
    const limiter = new WindowLimiter(1, 60_000, clockAt(0), 3);
    for (const key of ['a', 'b', 'c']) expect(limiter.hit(key)).toBe(0);
    expect(limiter.hit('a')).toBeGreaterThan(0);
    expect(limiter.hit('d')).toBe(0);
    expect(limiter.hit('d')).toBe(0);
    expect(limiter.size).toBe(3);
  });

  it('keeps keys as small integers: the heap holds none of the key strings', () => {
    const limiter = new WindowLimiter(10, 3_600_000, clockAt(0), 200_000);
    const keys = Array.from({ length: 1000 }, (_, i) => `abc1234|${i.toString(16).padStart(64, '0')}`);
    for (const key of keys) limiter.hit(key);
    // The counts map is keyed by numbers in the small-integer range (no heap object per key).
    const counts = (limiter as unknown as { counts: Map<unknown, unknown> }).counts;
    expect([...counts.keys()].every((k) => typeof k === 'number' && Number.isInteger(k) && k >= 0 && k < 2 ** 31)).toBe(true);
    expect(counts.size).toBeGreaterThan(995);
  });
});

describe('RecentKeys', () => {
  it('counts a key once within a sliding window, also across the turn of an aligned minute', () => {
    const clock = clockAt(600_000 + 59_000); // one second before a minute turns
    const seen = new RecentKeys(60_000, clock);
    expect(seen.first('a')).toBe(true);
    clock.set(600_000 + 61_000); // two seconds later, in the next aligned minute
    expect(seen.first('a')).toBe(false);
    expect(seen.first('b')).toBe(true); // another key has its own
    clock.set(600_000 + 59_000 + 59_000);
    expect(seen.first('a')).toBe(false); // 59 s after it was counted
    clock.set(600_000 + 59_000 + 60_000);
    expect(seen.first('a')).toBe(true); // a full window later it counts again
    clock.set(600_000 + 59_000 + 60_000 + 30_000);
    expect(seen.first('a')).toBe(false);
    clock.set(600_000 + 59_000 + 60_000 + 500_000); // long after: both generations are gone
    expect(seen.first('a')).toBe(true);
    expect(seen.first('b')).toBe(true);
  });

  it('counts everything with a window of 0, and new keys uncounted-but-not-remembered when full', () => {
    const off = new RecentKeys(0, clockAt(0));
    for (let i = 0; i < 3; i++) expect(off.first('a')).toBe(true);
    const small = new RecentKeys(60_000, clockAt(0), 2);
    expect(small.first('a')).toBe(true);
    expect(small.first('b')).toBe(true);
    expect(small.first('c')).toBe(true);
    expect(small.first('c')).toBe(true); // not remembered: the generation is full
    expect(small.first('a')).toBe(false);
  });
});

describe('hashKey', () => {
  it('depends on the seed, so a collision cannot be aimed at a key without knowing it', () => {
    const key = '5f0c2a1|' + 'ab'.repeat(32);
    expect(hashKey(key, 1)).not.toBe(hashKey(key, 2));
    expect(hashKey(key, 1)).toBe(hashKey(key, 1));
    expect(hashKey('a', 7)).not.toBe(hashKey('b', 7));
  });
});
