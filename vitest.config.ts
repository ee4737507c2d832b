import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Integration suites start their own Temporal dev server / LibreOffice; keep file-level parallelism modest on 2 cores.
    maxWorkers: 2,
    fileParallelism: true,
    // expect.poll waits on a condition; its 1 s default is a timing assumption that a loaded machine breaks.
    expect: { poll: { timeout: 30_000 } },
  },
});
