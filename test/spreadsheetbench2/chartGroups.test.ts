/**
 * Per-chart judge calls as the release routes them (chartGroups.ts): one call for an output with one chart; with
 * several, one call per chart a checklist item names by title (lower case, spaces collapsed; the first chart of a
 * title wins) and one for the other items with every chart; and the verdict of a judgment made in groups. The calls
 * in a run (a scripted checked_vote writing two titled charts, the judge answering each call): visualizationRun.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { chartGroups } from '../../benchmarks/spreadsheetbench2/visualization/chartGroups';
import { verdictOfGroups, type JudgeRound } from '../../benchmarks/spreadsheetbench2/visualization/judgeRounds';
import type { ChecklistItem } from '../../benchmarks/spreadsheetbench2/visualization/checklistJudge';

const item = (id: number, chart?: string): ChecklistItem => ({
  id,
  assertion: `item ${id}`,
  ...(chart ? { chart } : {}),
});

describe('which charts each judge call sees', () => {
  it('one chart: one call on the whole checklist, whatever the items name', () => {
    expect(chartGroups([item(1, 'Sales'), item(2)], ['Other'])).toEqual([{ charts: [0], items: [1, 2] }]);
    expect(chartGroups([item(1)], [])).toEqual([{ charts: [], items: [1] }]);
  });

  it('several charts: one call per named chart (its items, that chart alone), then the rest with every chart', () => {
    const checklist = [item(1, 'Sales'), item(2, ' TREND  line '), item(3), item(4, 'sales'), item(5, 'Missing')];
    expect(chartGroups(checklist, ['Sales', 'Trend Line', 'Sales'])).toEqual([
      { charts: [0], items: [1, 4] },
      { charts: [1], items: [2] },
      { charts: [0, 1, 2], items: [3, 5] },
    ]);
  });

  it('several charts, every item named: no call for the rest; untitled charts match nothing', () => {
    expect(chartGroups([item(1, 'A'), item(2, 'B')], ['B', 'A', ''])).toEqual([
      { charts: [1], items: [1] },
      { charts: [0], items: [2] },
    ]);
    expect(chartGroups([item(1, 'A')], ['', ''])).toEqual([{ charts: [0, 1], items: [1] }]);
  });
});

describe('the verdict of a judgment made in groups', () => {
  const round = (items: [number, boolean][], verdict: 'judged' | 'unparseable' = 'judged'): JudgeRound => ({
    round: 0,
    callKey: 'k',
    asked: items.map(([id]) => id),
    verdict,
    items: items.map(([id, pass]) => ({ id, pass })),
    reply: '',
    usage: { inputTokens: 0, outputTokens: 0 },
    costUsd: 0,
  });
  const checklist = [item(1), item(2), item(3), item(4)];

  it("every group's items over the whole checklist; unparseable when any group's first reply was", () => {
    const judged = verdictOfGroups(checklist, [
      [round([[1, true]])],
      [
        round([
          [2, true],
          [3, true],
          [4, true],
        ]),
      ],
    ]);
    expect(judged).toMatchObject({ verdict: 'judged', score: 1, accuracy: 1 });
    expect(verdictOfGroups(checklist, [[round([[1, true]])], []])).toMatchObject({ missing: [2, 3, 4], accuracy: 0 });
    expect(verdictOfGroups(checklist, [[round([[1, true]])], [round([], 'unparseable')]])).toEqual({
      verdict: 'unparseable',
      accuracy: 0,
    });
  });
});
