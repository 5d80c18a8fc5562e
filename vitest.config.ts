import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default', './test/summary-reporter.ts'],
    // Two groups, one after the other (test/README.md, "Runner"). First the files without a browser, two at a time:
    // each has its own in-memory SQLite database or PostgreSQL schema, and most of their time is waiting on
    // servers, sockets and timers. Then the browser files one at a time: several race a page's main thread on
    // purpose (20× CPU throttling, vendors answering in a millisecond), and a second Chromium on two cores changed
    // what they measure (stop 43: one failed in one run of three).
    projects: [
      {
        extends: true,
        test: {
          name: 'data',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, '**/*.browser.test.ts'],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/**/*.browser.test.ts', 'src/**/*.browser.test.ts'],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
