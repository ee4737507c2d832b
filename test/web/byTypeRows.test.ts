import { describe, expect, it } from 'vitest';
import type { RunMetrics } from '../../benchmarks/report/comparison';
import { byTypeRows } from '../../web/lib/byTypeRows.js';

const interval = (mean: number) => ({ mean, ci95: [mean - 0.1, mean + 0.1] as [number, number] });

describe("the run page's by-type table", () => {
  it('ends with the run without its known-bad tasks: how many tasks are left (a count), and their scores', () => {
    const m = {
      tasks: 10,
      byGroup: [{ group: 'Cell-Level', tasks: 10, soft: interval(0.5), hard: interval(0.4) }],
      withoutExcluded: { why: 'data errors', tasks: ['t3', 't7'], soft: interval(0.6), hard: interval(0.5) },
    } as Partial<RunMetrics> as RunMetrics;
    const rows = byTypeRows(m);
    expect(rows.map((r) => [r.group, r.tasks, r.soft.mean, r.hard.mean, r.excluded ?? false])).toEqual([
      ['Cell-Level', 10, 0.5, 0.4, false],
      ['without 2 known-bad tasks', 8, 0.6, 0.5, true],
    ]);
  });

  it('has no such row when the run excludes nothing', () => {
    const m = { tasks: 3, byGroup: [] } as Partial<RunMetrics> as RunMetrics;
    expect(byTypeRows(m)).toEqual([]);
  });
});
