import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  exampleMismatch,
  exampleProblems,
  exampleTableOf,
  type ExampleTable,
} from '../../benchmarks/spreadsheetbench/agents/checkedVote/exampleTable';
import { chooseSubmission, onlyExampleMismatch } from '../../benchmarks/spreadsheetbench/agents/checkedVote/vote';
import { openWorkbookValues } from '../../benchmarks/workbook/ooxmlReader';
import { DEV20 } from '../helpers/datasets';

const records = JSON.parse(readFileSync(path.join(DEV20, 'dataset.json'), 'utf8')) as {
  id: string | number;
  answer_position: string;
}[];
const file = (id: string, n: number, kind: 'input' | 'answer') =>
  path.join(DEV20, 'spreadsheet', id, `${n}_${id}_${kind}.xlsx`);

async function tableOf(id: string): Promise<ExampleTable | undefined> {
  const record = records.find((r) => String(r.id) === id)!;
  return exampleTableOf(await openWorkbookValues(file(id, 1, 'input')), record.answer_position);
}

/** Per test case: whether the answer file, and the unchanged input, differ from the example ('X') or not ('.'). */
async function verdicts(id: string): Promise<{ answer: string; input: string }> {
  const table = (await tableOf(id))!;
  let answer = '';
  let input = '';
  for (const n of [1, 2, 3]) {
    answer += (await exampleMismatch(table, file(id, n, 'input'), file(id, n, 'answer'))) ? 'X' : '.';
    input += (await exampleMismatch(table, file(id, n, 'input'), file(id, n, 'input'))) ? 'X' : '.';
  }
  return { answer, input };
}

describe("the user's example of the result in the workbook (checked-vote-v14)", () => {
  it("is found where the answer table's headers repeat: another sheet, or other columns of the same one", async () => {
    expect(await tableOf('230-16')).toMatchObject({ sheet: 'After', regionSheet: 'Before', header: 1, offset: 0 });
    expect(await tableOf('208-20')).toMatchObject({ sheet: 'Q', regionSheet: 'Q', header: 2, offset: 8 });
    expect(await tableOf('599-9')).toMatchObject({ sheet: 'After', header: 1, tableStart: 1, tableEnd: 11 });
    // No repeated headers: no example.
    expect(await tableOf('416-15')).toBeUndefined();
    expect(await tableOf('39604')).toBeUndefined();
  });

  it('never refuses the true answer, and refuses the unchanged input only where the example is of that input', async () => {
    // 230-16: the example splits each input row's text; the answers agree with it on every input.
    expect(await verdicts('230-16')).toEqual({ answer: '...', input: 'XXX' });
    // 212-20: its third input changed the text, and the example still shows the old one's pieces: not applied there.
    expect(await verdicts('212-20')).toEqual({ answer: '...', input: 'XX.' });
    // 599-9: the third input dates row 4 anew while the example keeps the old date; rows 2 and 3 are still its.
    expect(await verdicts('599-9')).toEqual({ answer: '...', input: 'XX.' });
    // 208-20's 'Expected Result' shows other data (another stock): never applied.
    expect(await verdicts('208-20')).toEqual({ answer: '...', input: '...' });
  });

  it('names each cell that differs, with what the example shows', async () => {
    const table = (await tableOf('230-16'))!;
    const [problem] = await exampleProblems(table, [
      { testCase: 1, inputFile: file('230-16', 1, 'input'), outputFile: file('230-16', 1, 'input') },
      { testCase: 2, inputFile: file('230-16', 2, 'input'), outputFile: file('230-16', 2, 'answer') },
      { testCase: 3, inputFile: file('230-16', 3, 'input') },
    ]);
    expect(problem).toMatchObject({ kind: 'example_mismatch', testCase: 1 });
    expect(problem.detail).toContain(`'After'!A3 shows "2020-02-21 09:58:34.595555"`);
    expect(problem.detail).toContain('A2 = "2020-02-21 09:58:34.595555 event_type=\\"BUSINESS\\""');
    expect(await exampleProblems(undefined, [{ testCase: 1, inputFile: 'x', outputFile: 'y' }])).toEqual([]);
  });
});

describe('the vote when only the example refuses candidates', () => {
  const ballot = (id: string, passed: boolean, onlyExample: boolean, cells: string[]) => ({
    id,
    passed,
    onlyExample,
    signature: [cells],
  });

  it('prefers a candidate that passed every check, then one the example alone refused, then the input', () => {
    const passing = ballot('cand-2.0', true, false, ['a']);
    const exampleOnly = ballot('cand-1.0', false, true, ['b']);
    const crashed = ballot('cand-3.0', false, false, []);
    expect(chooseSubmission([exampleOnly, passing, crashed]).chosen).toBe('cand-2.0');
    const fallback = chooseSubmission([exampleOnly, crashed]);
    expect(fallback.chosen).toBe('cand-1.0');
    expect(fallback.reason).toContain("differ only from the workbook's example");
    expect(chooseSubmission([crashed]).chosen).toBeUndefined();
  });

  it('counts a record as refused by the example alone only when every problem is a difference from it', () => {
    expect(onlyExampleMismatch({ problems: [{ kind: 'example_mismatch' }, { kind: 'example_mismatch' }] })).toBe(true);
    expect(onlyExampleMismatch({ problems: [{ kind: 'example_mismatch' }, { kind: 'unchanged' }] })).toBe(false);
    expect(onlyExampleMismatch({ problems: [] })).toBe(false);
    expect(onlyExampleMismatch(undefined)).toBe(false);
  });

  it("lets the candidates that keep the user's formula whole win, when there are passing ones (checked-vote-v15)", () => {
    // 39604 in v14's sample: two rewrites agreed on wrong values; the one keeping the user's formula lost 1 to 2.
    const rewrites = [ballot('formula-1.1', true, false, ['0']), ballot('formula-4.1', true, false, ['0'])];
    const kept = { ...ballot('formula-2.1', true, false, ['-11.89']), keepsUserFormula: true };
    expect(chooseSubmission([...rewrites, kept]).chosen).toBe('formula-2.1');
    expect(chooseSubmission([...rewrites, kept]).reason).toContain("keep the user's formula whole");
    expect(chooseSubmission(rewrites).chosen).toBe('formula-1.1');
    // A keeper that failed the checks does not count.
    expect(chooseSubmission([...rewrites, { ...kept, passed: false }]).chosen).toBe('formula-1.1');
  });
});
