import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Wall seconds of the slowest test files on a clean clone (issue 33 §6): vitest's own record of the clean-clone run of
 * 2026-11-27 (608 s, 225 files), less what later changes took off (checkedVote, whyAndCompare; the kill -9 files by
 * their measured share under FAST_FAILOVER, test/helpers/e2e.ts). A clean clone has no
 * vitest results cache, and vitest then orders files by size: a short file with a long run starts last and holds the
 * end of the run while the other workers are idle. Approximate: only the order matters.
 */
const KNOWN_SECONDS: Record<string, number> = {
  'test/spreadsheetbench2/scaffoldRun.test.ts': 89,
  'test/chaos/chaos.test.ts': 83,
  'test/e2e/whyAndCompare.test.ts': 55,
  'test/e2e/analysisRestoreCrash.test.ts': 47,
  'test/spreadsheetbench2/visualizationRun.test.ts': 47,
  'test/web/chat.e2e.test.ts': 37,
  'test/sandbox/attacks.test.ts': 36,
  'test/cli/operator.test.ts': 36,
  'test/spreadsheetbench2/rejudgeKilled.test.ts': 35,
  'test/spreadsheetbench2/checkedVoteRun.test.ts': 32,
  'test/e2e/budgetSettle.test.ts': 31,
  'test/e2e/crash.test.ts': 30,
  'test/e2e/analysisCrash.test.ts': 29,
  'test/agents/checkedVote.test.ts': 27,
  'test/e2e/analysisRestore.test.ts': 27,
  'test/e2e/batchCrash.test.ts': 27,
  'test/cli/serve.test.ts': 26,
  'test/e2e/dsbenchCrash.test.ts': 23,
  'test/cli/benchmarks.test.ts': 22,
  'test/e2e/analysisBenchmarkCrash.test.ts': 21,
  'test/e2e/control.test.ts': 20,
  'test/agents/checkedVoteCrash.test.ts': 18,
  'test/chaos/killAfterReplyCached.test.ts': 17,
  'test/agents/crash.test.ts': 16,
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
