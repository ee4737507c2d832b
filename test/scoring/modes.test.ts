import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadDataset, type SheetTask } from '../../benchmarks/spreadsheetbench/dataset';
import {
  answerPathFor,
  evaluateTestCase,
  parseDifferences,
  scoreTask,
  verdictDifferences,
} from '../../benchmarks/spreadsheetbench/scoring';
import { sharedData } from '../helpers/sharedData';

const DEV20 = sharedData('spreadsheetbench-dev20');
const records = JSON.parse(readFileSync(sharedData('spreadsheetbench-912-instructions.json'), 'utf8')) as SheetTask[];

describe('official vs strict mode', () => {
  it('lists the 912 records whose answer_position the two modes read differently', () => {
    const ids = parseDifferences(records).map((d) => String(d.id));
    for (const id of [
      '45944',
      '56637',
      '283-32',
      '73-45',
      'CF_15439',
      '6435',
      '37456',
      '49300',
      '52763',
      '118-8',
      '532-3',
    ])
      expect(ids, id).toContain(id);
    expect(ids).not.toContain('57105');
    expect(ids.length).toBeLessThan(30);
  });

  it('strict fixes change verdicts on real files: spaces after commas and lowercase columns', async () => {
    const [task] = (await loadDataset(DEV20)).filter((t) => t.id === 57105);
    const answer = answerPathFor(DEV20, task, 1);
    const input = answer.replace('_answer', '_input');
    const spaced = { answerPath: answer, outputPath: answer, answerPosition: 'C4:C9, C10:C15' };
    expect((await evaluateTestCase(spaced)).pass).toBe(false);
    expect((await evaluateTestCase({ ...spaced, mode: 'strict' })).pass).toBe(true);
    const lower = { answerPath: answer, outputPath: input, answerPosition: 'c4:c15' };
    expect((await evaluateTestCase(lower)).pass).toBe(true); // official: 'c' → column 35 (AI), empty on both sides
    expect((await evaluateTestCase({ ...lower, mode: 'strict' })).pass).toBe(false);
  });

  it('verdictDifferences reports tasks whose test_case_results differ between two runs', async () => {
    const tasks = (await loadDataset(DEV20)).slice(0, 3);
    const runMode = async (mode: 'official' | 'strict', ap: (t: SheetTask) => string) =>
      Promise.all(
        tasks.map(
          async (t) =>
            (
              await scoreTask({
                task: { ...t, answer_position: ap(t) },
                datasetDir: DEV20,
                outputPathFor: (n) => answerPathFor(DEV20, t, n),
                mode,
              })
            ).official,
        ),
      );
    const spaced = (t: SheetTask) =>
      t.id === 57232 ? `${t.answer_position}, ${t.answer_position}` : t.answer_position;
    const diffs = verdictDifferences(tasks, await runMode('official', spaced), await runMode('strict', spaced));
    expect(diffs).toEqual([
      { id: 57232, answer_position: tasks[1].answer_position, official: [0, 0, 0], strict: [1, 1, 1] },
    ]);
  });
});
