import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Wall seconds of the slowest test files, measured in a full run under load (issue 33 §6). A clean clone has no vitest
 * results cache, and vitest then orders files by size: a short file with a long run (crash.test.ts, 76 lines, 45 s)
 * starts last and holds the end of the run while the other workers are idle. Approximate: only the order matters.
 */
const KNOWN_SECONDS: Record<string, number> = {
  'test/e2e/whyAndCompare.test.ts': 169,
  'test/chaos/chaos.test.ts': 154,
  'test/spreadsheetbench2/scaffoldRun.test.ts': 131,
  'test/agents/checkedVoteCrash.test.ts': 94,
  'test/cli/operator.test.ts': 90,
  'test/cli/serve.test.ts': 90,
  'test/sandbox/attacks.test.ts': 85,
  'test/agents/checkedVote.test.ts': 74,
  'test/e2e/analysisRestoreCrash.test.ts': 69,
  'test/web/chat.e2e.test.ts': 58,
  'test/cli/cli.test.ts': 50,
  'test/e2e/runHandOver.test.ts': 46,
  'test/web/runPages.e2e.test.ts': 45,
  'test/e2e/crash.test.ts': 45,
  'test/e2e/dsbenchCrash.test.ts': 43,
  'test/e2e/analysisBenchmarkCrash.test.ts': 42,
  'test/cli/benchmarks.test.ts': 41,
};

/**
 * Longest file first, so the long ones start at once and the short ones fill the workers at the end: the duration
 * vitest recorded in its results cache when it has one, else the known seconds above, else (a file never measured)
 * after those, larger files first as vitest does. Failed files of the last run still go first, as in vitest.
 */
export class SlowestFirstSequencer extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const keyed = files.map((spec) => ({ spec, ...this.estimate(spec) }));
    keyed.sort(
      (a, b) =>
        Number(b.failed) - Number(a.failed) ||
        (b.seconds ?? -1) - (a.seconds ?? -1) ||
        b.size - a.size ||
        a.spec.moduleId.localeCompare(b.spec.moduleId),
    );
    return Promise.resolve(keyed.map((k) => k.spec));
  }

  private estimate(spec: TestSpecification): { seconds?: number; failed: boolean; size: number } {
    const file = path.relative(this.ctx.config.root, spec.moduleId);
    const key = `${spec.project.name}:${file}`;
    const cached = this.ctx.cache.getFileTestResults(key);
    const size = this.ctx.cache.getFileStats(key)?.size ?? 0;
    if (cached) return { seconds: cached.duration / 1000, failed: cached.failed, size };
    return { seconds: KNOWN_SECONDS[file], failed: false, size };
  }
}
