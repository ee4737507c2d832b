import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeReport } from '../../benchmarks/spreadsheetbench/report/writeReport';
import { baselineRun, buildRunFolder, makeTempDir, standardRun } from './fixtures';

/** Expected figures are worked out by hand from standardRun()/baselineRun() (see fixtures.ts), not by the report code. */
describe('report.md', () => {
  let runDir: string;
  let md: string;
  let compared: string;

  beforeAll(async () => {
    const tmp = await makeTempDir();
    runDir = await buildRunFolder(tmp, standardRun());
    const baseDir = await buildRunFolder(tmp, baselineRun());
    await writeReport({ runDir });
    md = await readFile(path.join(runDir, 'report.md'), 'utf8');
    const out = path.join(tmp, 'compare-out');
    await writeReport({ runDir, compareDir: baseDir, outDir: out });
    compared = await readFile(path.join(out, 'report.md'), 'utf8');
  });

  it('counts finished and pending tasks and totals calls, tokens and cost', () => {
    expect(md).toContain('- Tasks: 4 finished of 5 (1 pending)');
    // calls 3+1+1+2 = 7; input 400+200+50+250 = 900; output 100+50+0+50 = 200; cost .004+.002+.0005+.0023 = .0088
    expect(md).toContain('- LLM calls: 7; tokens: 900 in / 200 out; cost: $0.0088');
  });

  it('scores overall and by instruction type (pending tasks excluded)', () => {
    // soft (1 + 2/3 + 0 + 1)/4 = 0.6667, hard 2/4
    expect(md).toContain('| all | 4 | 66.7% | 50.0% |');
    // cell: 101 (1, hard 1), 102 (2/3, hard 0) -> 0.8333 / 0.5; sheet: 13-1 (0), 104 (1) -> 0.5 / 0.5
    expect(md).toContain('| Cell-Level Manipulation | 2 | 83.3% | 50.0% |');
    expect(md).toContain('| Sheet-Level Manipulation | 2 | 50.0% | 50.0% |');
  });

  it('totals cost and tokens by stage', () => {
    // plan: 101 + 104 -> calls 2, in 200, out 30, $0.0018, 1.5 s; solve: calls 2+1+1+1, in 700, out 170, $0.007, 4.6 s
    expect(md).toContain('| plan | 2 | 200 | 30 | $0.0018 | 1.5 |');
    expect(md).toContain('| solve | 5 | 700 | 170 | $0.0070 | 4.6 |');
  });

  it('lists failure classes and one row per task with transcript links', () => {
    expect(md).toMatch(/## Failure classes\n\n\| Class \| Tasks \|\n\|---\|---\|\n\| llm \| 1 \|/);
    const rows = md.split('\n').filter((l) => /^\| (\[?\d|13-1)/.test(l) && !l.startsWith('| all'));
    expect(rows).toHaveLength(5);
    expect(md).toContain(
      '| [102](tasks/102/transcript.html) | Cell-Level Manipulation | ✓✗✓ | 0.667 | 0.000 | 1 | 250 | $0.0020 |  | #2 B3: expected 4.0 got None |',
    );
    expect(md).toContain(
      '| [13-1](tasks/13-1/transcript.html) | Sheet-Level Manipulation | ✗✗✗ | 0.000 | 0.000 | 1 | 50 | $0.0005 | llm: retries exhausted after 429 |',
    );
    expect(md).toContain('| 105 | Cell-Level Manipulation | pending |');
  });

  it('never leaks secrets from the run config', () => {
    expect(md).not.toContain('sk-test-not-a-key');
  });

  it('compares two runs: deltas and fixed/broken tasks', () => {
    // baseline soft: (1/3 + 1 + 0 + 1 + 1 + 1/3)/6 = 0.6111; hard 3/6; cost 6 x 0.001; tokens 6 x 125; calls 6
    expect(compared).toContain('| Soft | 61.1% | 66.7% | +5.6 pp |');
    expect(compared).toContain('| Hard | 50.0% | 50.0% | +0.0 pp |');
    expect(compared).toContain('| Cost | $0.0060 | $0.0088 | +$0.0028 |');
    expect(compared).toContain('| Tokens | 750 | 1,100 | +350 |');
    expect(compared).toContain('fixed: 1, broken: 1, unchanged: 2, only-baseline: 1, pending: 1');
    expect(compared).toContain('| 101 | fixed | 0.333 / 0.000 | 1.000 / 1.000 |');
    expect(compared).toContain('| 102 | broken | 1.000 / 1.000 | 0.667 / 0.000 |');
    expect(compared).toContain('| 106 | only-baseline | 0.333 / 0.000 | — |');
    expect(compared).not.toContain('| 104 |');
  });
});
