import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import { SlowestFirstSequencer } from './test/slowestFirstSequencer.js';
import { sharedModuleFiles } from './test/sharedModuleFiles.js';

const SHARED = sharedModuleFiles(fileURLToPath(new URL('.', import.meta.url)));

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    globalSetup: ['test/workflowBundleSetup.ts', 'test/temporalSetup.ts'],
    // Integration files start their own Temporal dev server / LibreOffice and spend much of their time waiting (model
    // latency, held replies, timers): measured per directory in cpuacct cgroups, the whole suite (1,000 tests, 178 files)
    // is 969 CPU-s, about half of 14.3 min x 2 cores with two files at a time: a third file at a time uses the idle half.
    // The tests wait on conditions, not on time, so the extra contention does not make them flaky (green at load 20-30).
    maxWorkers: 3,
    fileParallelism: true,
    // The longest files first (known durations on a clean clone, which has no results cache): none starts last.
    sequence: { sequencer: SlowestFirstSequencer },
    // expect.poll waits on a condition; its 1 s default is a timing assumption that a loaded machine breaks.
    expect: { poll: { timeout: 30_000 } },
    // Files that do not change the process share their worker's imported modules (test/sharedModuleFiles.ts); a file
    // that mocks, patches or sets something process-wide runs in a fresh process.
    projects: [
      { extends: true, test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: SHARED } },
      { extends: true, test: { name: 'shared', include: SHARED, isolate: false } },
    ],
  },
});
