import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker less than the CPUs: one on a 2-core CI machine, so every file ran after the
    // other while most of the suite waits on browsers, servers and timers. Two: 1,104 s → 835 s (stop 43, same machine).
    maxWorkers: 2,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
