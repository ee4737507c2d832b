import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { SlowestFirstSequencer } from '../slowestFirstSequencer';

const ROOT = '/repo';

/** A sequencer over a fake vitest: `results` is its results cache (ms, failed), `sizes` the files' sizes. */
function sequencer(results: Record<string, { duration: number; failed: boolean }>, sizes: Record<string, number>) {
  const ctx = {
    config: { root: ROOT },
    cache: {
      getFileTestResults: (key: string) => results[key.replace(/^:/, '')],
      getFileStats: (key: string) => {
        const size = sizes[key.replace(/^:/, '')];
        return size === undefined ? undefined : { size };
      },
    },
  };
  return new SlowestFirstSequencer(ctx as unknown as Vitest);
}
const specs = (files: string[]) =>
  files.map((f) => ({ moduleId: `${ROOT}/${f}`, project: { name: '' } }) as unknown as TestSpecification);
const order = async (s: SlowestFirstSequencer, files: string[]) =>
  (await s.sort(specs(files))).map((x) => x.moduleId.slice(ROOT.length + 1));

describe('the slowest test files first', () => {
  it('a clean clone (no results cache): the known slow files by their seconds, then the others larger first', async () => {
    const s = sequencer({}, { 'test/a.test.ts': 100, 'test/b.test.ts': 9_000, 'test/e2e/crash.test.ts': 10 });
    expect(
      await order(s, [
        'test/a.test.ts',
        'test/e2e/crash.test.ts',
        'test/b.test.ts',
        'test/chaos/chaos.test.ts',
        'test/e2e/whyAndCompare.test.ts',
      ]),
    ).toEqual([
      'test/chaos/chaos.test.ts', // 83 s
      'test/e2e/whyAndCompare.test.ts', // 55 s
      'test/e2e/crash.test.ts', // 30 s, though the smallest file
      'test/b.test.ts',
      'test/a.test.ts',
    ]);
  });

  it("vitest's recorded durations win over the known seconds; a file that failed last time goes first", async () => {
    const s = sequencer(
      {
        'test/chaos/chaos.test.ts': { duration: 5_000, failed: false },
        'test/a.test.ts': { duration: 200_000, failed: false },
        'test/b.test.ts': { duration: 1_000, failed: true },
      },
      {},
    );
    expect(
      await order(s, [
        'test/chaos/chaos.test.ts',
        'test/a.test.ts',
        'test/b.test.ts',
        'test/e2e/whyAndCompare.test.ts',
      ]),
    ).toEqual(['test/b.test.ts', 'test/a.test.ts', 'test/e2e/whyAndCompare.test.ts', 'test/chaos/chaos.test.ts']);
  });
});
