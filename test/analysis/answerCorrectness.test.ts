import { describe, expect, it } from 'vitest';
import { checkCorrectness } from '../../analysis/grounding/correctness';
import { COMPUTED_LEAD, computedAnswer, REPLACED_NOTE } from '../../analysis/grounding/computedAnswer';
import { correctnessNote } from '../../analysis/grounding/correctnessNote';
import { groundAnswer } from '../../analysis/grounding/ground';
import { noValueHint } from '../../analysis/grounding/noValueHint';
import type { SourceText } from '../../analysis/grounding/sources';
import { operationMismatch } from '../../analysis/grounding/operation';
import { labelledRows, tableDisagreements } from '../../analysis/grounding/tableAgreement';
import {
  REVISE_ANSWER_LEAD,
  reviseAnswerInstruction,
  reviseNumbersInstruction,
  reviseNumbersNeedsCode,
} from '../../analysis/conversation/prompts';

const QUESTION = 'What are the total visits per city?';
const COUNT_CODE = "import pandas as pd\ndf = pd.read_csv('visits.csv')\nprint(df['city'].value_counts())";
const SUM_CODE = "import pandas as pd\ndf = pd.read_csv('visits.csv')\nprint(df.groupby('city')['visits'].sum())";
const TABLE = 'city,visits\nParis,2324\nLyon,1376\nNice,2290\n';

describe('the operation against the question', () => {
  it('a total per group computed with value_counts (or .size(), .count(), len) is flagged, naming both', () => {
    expect(operationMismatch(QUESTION, [COUNT_CODE])).toEqual({
      asked: 'total',
      used: 'value_counts',
      kind: 'aggregate',
    });
    expect(operationMismatch('Average price per region?', ["df.groupby('region').size()"])).toEqual({
      asked: 'Average',
      used: 'size',
      kind: 'aggregate',
    });
    // Seen with the 0.5B: the sum of the counts is still a count of rows.
    expect(operationMismatch(QUESTION, ["total = df['city'].value_counts().sum()\nprint(total)"])).toEqual({
      asked: 'total',
      used: 'value_counts',
      kind: 'aggregate',
    });
    expect(operationMismatch('Sum of sales by shop', ["print(len(df[df.shop == 'a']))"])).toMatchObject({
      used: 'len',
    });
  });

  it('a sum or mean in the code, a question asking for a count, or no code at all pass', () => {
    expect(operationMismatch(QUESTION, [SUM_CODE])).toBeUndefined();
    expect(operationMismatch(QUESTION, [COUNT_CODE, SUM_CODE])).toBeUndefined();
    expect(operationMismatch('What is the total number of visits per city?', [COUNT_CODE])).toBeUndefined();
    expect(operationMismatch('How many rows per city?', [COUNT_CODE])).toBeUndefined();
    expect(operationMismatch('Which city is largest?', [COUNT_CODE])).toBeUndefined();
    expect(operationMismatch(QUESTION, [])).toBeUndefined();
  });
});

describe('distinct values against a count of every row', () => {
  const DISTINCT = 'How many distinct products are in sales.csv?';
  it("the 0.5B's len(df['product']) for a distinct count is flagged; nunique, unique, set or drop_duplicates pass", () => {
    expect(operationMismatch(DISTINCT, ["df = pd.read_csv('sales.csv')\nprint(len(df['product']))"])).toEqual({
      asked: 'number of distinct values',
      used: 'len',
      kind: 'distinct',
    });
    expect(operationMismatch(DISTINCT, ["print(df['product'].count())"])).toMatchObject({ used: 'count' });
    for (const ok of [
      "print(df['product'].nunique())",
      "print(len(df['product'].unique()))",
      "print(len(set(df['product'])))",
      "print(len(df['product'].drop_duplicates()))",
    ])
      expect(operationMismatch(DISTINCT, [ok]), ok).toBeUndefined();
  });

  it('a question not asking for a count of distinct values is not checked this way', () => {
    expect(operationMismatch('How many rows are in sales.csv?', ['print(len(df))'])).toBeUndefined();
    expect(operationMismatch('List the unique products.', ['print(len(df))'])).toBeUndefined();
  });

  it('the request to revise asks for each value counted once', () => {
    const evidence = checkCorrectness({
      question: DISTINCT,
      codes: ["print(len(df['product']))"],
      answer: 'There are 36 distinct products.',
      sources: [{ kind: 'stdout', text: '36\n' }],
    });
    expect(evidence.wrong).toBe(true);
    expect(reviseAnswerInstruction(evidence)).toContain('nunique()');
    expect(correctnessNote(evidence, { total: 1, grounded: 1 })).toContain('counted every row (`len`)');
  });
});

describe("the answer's numbers against the table it saved", () => {
  it('reads labelled rows: the first text column, the numeric columns (quotes honoured)', () => {
    expect(labelledRows('city,visits,share\n"Paris, FR",2324,0.3\nLyon,1376,0.2\n')).toEqual([
      { label: 'Paris, FR', values: ['2324', '0.3'] },
      { label: 'Lyon', values: ['1376', '0.2'] },
    ]);
    expect(labelledRows('a,b\n1,2\n')).toEqual([]);
    expect(labelledRows('')).toEqual([]);
  });

  it('an answer stating other numbers for the rows it names disagrees, row by row', () => {
    const answer = 'Visits per city: Paris 1000, Lyon 2000, Nice 3000.';
    expect(tableDisagreements(answer, TABLE)).toEqual([
      { label: 'Paris', stated: '1000', expected: ['2324'] },
      { label: 'Lyon', stated: '2000', expected: ['1376'] },
      { label: 'Nice', stated: '3000', expected: ['2290'] },
    ]);
  });

  it('an answer matching the table (formatting and rounding allowed) or naming no row agrees', () => {
    expect(tableDisagreements('- **Paris**: 2,324\n- **Lyon**: 1376\n- Nice: 2.29k visits', TABLE)).toEqual([]);
    expect(tableDisagreements('The three cities total 5990 visits.', TABLE)).toEqual([]);
    // One slip among several right rows (e.g. a count stated beside a label) is not called wrong.
    expect(tableDisagreements('Paris (3 stores): 2324, Lyon: 1376, Nice: 2290', TABLE)).toEqual([]);
  });
});

describe('the evidence and the request to revise', () => {
  const table = { kind: 'table' as const, file: 'viz/bar-1.csv', text: TABLE };

  it('a row count answered for a total is wrong, and the request names the operation and the fix', () => {
    const counts = { kind: 'table' as const, file: 'viz/counts.csv', text: 'city,count\nParis,8\nLyon,8\n' };
    const evidence = checkCorrectness({
      question: QUESTION,
      codes: [COUNT_CODE],
      answer: 'Paris 8, Lyon 8.',
      sources: [counts],
    });
    expect(evidence).toMatchObject({ wrong: true, operation: { used: 'value_counts' }, rows: [] });
    const text = reviseAnswerInstruction(evidence);
    expect(text.startsWith(REVISE_ANSWER_LEAD)).toBe(true);
    expect(text).toContain('`value_counts`');
    expect(text).toContain('.sum()');
    // The counts table is not offered as the source of the answer.
    expect(text).not.toContain('viz/counts.csv');
  });

  it('numbers that disagree with the saved table are wrong, and the request quotes the table', () => {
    const evidence = checkCorrectness({
      question: QUESTION,
      codes: [SUM_CODE],
      answer: 'Paris 1000, Lyon 2000, Nice 3000.',
      sources: [table],
    });
    expect(evidence.wrong).toBe(true);
    const text = reviseAnswerInstruction(evidence);
    expect(text).toContain('you wrote 1000 for Paris, the table has 2324');
    expect(text).toContain('viz/bar-1.csv');
    expect(text).toContain('Nice,2290');
  });

  it('unfound numbers are sent back with what to answer from: the saved table, else what the code last printed', () => {
    const printed = { kind: 'stdout' as const, text: 'city\nParis    2324\nLyon     1376\n' };
    const evidence = (sources: Array<typeof table | typeof printed>) =>
      checkCorrectness({ question: QUESTION, codes: [SUM_CODE], answer: 'Totals: 1000, 2000.', sources });
    expect(evidence([printed, table])).toMatchObject({ wrong: false, table: { file: 'viz/bar-1.csv' } });
    expect(reviseNumbersInstruction(['1000', '2000'], evidence([printed, table]))).toContain('Nice,2290');
    const fromStdout = reviseNumbersInstruction(['1000', '2000'], evidence([printed]));
    expect(fromStdout).toContain('Your last code run printed:');
    expect(fromStdout).toContain('Paris    2324');
    expect(reviseNumbersInstruction(['1000'])).toContain('Check each with code');
  });

  it("a saved table holding no value (the 1.5B's a15: `index,price` / `59,`) is said to hold none, and the revision must run code", () => {
    const empty = { kind: 'table' as const, file: 'viz/table-1.csv', text: 'index,price\n59,\n' };
    const echo = {
      kind: 'stdout' as const,
      text: "{'id': 'table-1', 'type': 'table', 'dataFile': 'viz/table-1.csv'}\n",
    };
    const question = 'In stock.csv, what is the 7-day moving average of price on the last date (2 decimals)?';
    const evidence = checkCorrectness({ question, codes: [], answer: 'It is 102.67.', sources: [echo, empty] });
    const text = reviseNumbersInstruction(['102.67'], evidence);
    expect(text).toContain('viz/table-1.csv');
    expect(text).toContain('It holds no value');
    expect(text).toContain('Check each with code');
    // Not asked to answer from the empty table, as it was (it gave 102.67 again).
    expect(text).not.toContain('with the numbers of this table');
    expect(reviseNumbersNeedsCode(evidence)).toBe(true);
    expect(reviseNumbersNeedsCode({ table: { file: 'viz/t.csv', head: 'index,price\n59,NaN' } })).toBe(true);
    // With the code that made it, the request says why it is empty (a15's rolling mean over the last date's row).
    const code = "ma = df[df['date'] == last_date]['price'].rolling(window=7).mean()";
    expect(reviseNumbersInstruction(['102.67'], evidence, [code])).toContain(
      'rolling(7) gives NaN until 7 rows are in the window',
    );
    expect(noValueHint("df[df['date'] == d]['price'].mean()")).toMatch(/rows you selected may be none/);
    expect(noValueHint("df['price'].sum()")).toBeUndefined();
  });

  it('a revision for unfound numbers runs code first only when nothing computed holds a value to answer from', () => {
    const printed = { kind: 'stdout' as const, text: 'city\nParis    2324\n' };
    const evidence = (sources: Array<typeof table | typeof printed>) =>
      checkCorrectness({ question: QUESTION, codes: [SUM_CODE], answer: 'Totals: 1000, 2000.', sources });
    expect(reviseNumbersNeedsCode(evidence([table]))).toBe(false);
    expect(reviseNumbersNeedsCode(evidence([printed]))).toBe(false);
    expect(reviseNumbersNeedsCode(evidence([]))).toBe(true);
    expect(reviseNumbersNeedsCode()).toBe(true);
  });

  it('a right answer is not wrong', () => {
    const evidence = checkCorrectness({
      question: QUESTION,
      codes: [SUM_CODE],
      answer: 'Paris 2324, Lyon 1376, Nice 2290.',
      sources: [table],
    });
    expect(evidence).toMatchObject({ wrong: false, rows: [] });
    expect(evidence.operation).toBeUndefined();
  });
});

describe('the note under an answer still wrong when its turn ends', () => {
  const table = { kind: 'table' as const, file: 'viz/bar-1.csv', text: TABLE };
  const check = (answer: string, codes = [SUM_CODE]) =>
    checkCorrectness({ question: QUESTION, codes, answer, sources: [table] });

  it('numbers found nowhere, with a table saved: the note quotes the table', () => {
    const note = correctnessNote(check('Totals: 1000, 2000.'), { total: 2, grounded: 0 });
    expect(note).toMatch(/^> \*\*Check failed:\*\* .*none of its numbers/);
    expect(note).toContain('Paris,2324');
  });

  it('a row count for a total: the note names the operation, and offers no table', () => {
    const note = correctnessNote(check('Paris 8', [COUNT_CODE]), { total: 1, grounded: 1 });
    expect(note).toContain('`value_counts`');
    expect(note).not.toContain('Paris,2324');
  });

  it("numbers found nowhere and no table saved (the 1.5B's invented sum after web_fetch): noted, with what the code printed if anything", () => {
    const nothing = checkCorrectness({
      question: 'What is the sum of the scores?',
      codes: [],
      answer: 'The sum is 1000.',
      sources: [],
    });
    expect(correctnessNote(nothing, { total: 1, grounded: 0 })).toMatch(
      /^> \*\*Check failed:\*\* .*none of its numbers/,
    );
    const printed = checkCorrectness({
      question: 'What is the sum of the scores?',
      codes: ['print(sum(scores))'],
      answer: 'The sum is 1000.',
      sources: [{ kind: 'stdout', text: '2555\n' }],
    });
    // Numbers a second, independently written program computed (the cross-check agreed) are not flagged.
    expect(correctnessNote(nothing, { total: 1, grounded: 0 }, true)).toBeUndefined();
    expect(correctnessNote(printed, { total: 1, grounded: 0 })).toContain(
      'What the code printed last:\n\n```\n2555\n```',
    );
  });

  it("numbers given by the question are not the answer's own: an answer whose own numbers are all unfound is noted", () => {
    const question = 'In stock.csv, what is the 7-day moving average of price on the last date (2 decimals)?';
    const empty = { kind: 'table' as const, file: 'viz/table-1.csv', text: 'index,price\n59,\n' };
    const answer = 'The 7-day moving average of the price on the last date is 102.67.';
    const sources = [empty, { kind: 'question' as const, text: question }];
    const grounding = groundAnswer(answer, sources);
    expect(grounding).toMatchObject({ total: 2, grounded: 1 });
    const evidence = checkCorrectness({ question, codes: [], answer, sources });
    expect(correctnessNote(evidence, grounding)).toMatch(/^> \*\*Check failed:\*\* .*none of its numbers/);
    // One of its own numbers found: not noted (partly unfound answers are revised, not flagged).
    const partly = groundAnswer('The average is 102.67 over 59 rows.', sources);
    expect(correctnessNote(evidence, partly)).toBeUndefined();
    // As recorded in the 1.5B's runs: its 7 found first in the echo of save_table's title, the question's 7 all the same.
    const echo = { kind: 'stdout' as const, text: "{'id': 'table-1', 'title': '7-day Moving Average of Price'}\n" };
    const echoed = groundAnswer(answer, [echo, ...sources]);
    expect(echoed.numbers[0]).toMatchObject({ value: 7, grounded: true, source: { kind: 'stdout' } });
    expect(correctnessNote(evidence, echoed)).toBeUndefined(); // without the question: its 7 looks like its own
    expect(correctnessNote(evidence, echoed, false, question)).toMatch(
      /^> \*\*Check failed:\*\* .*none of its numbers/,
    );
  });

  it('a right answer, or one partly unfound, gets no note', () => {
    expect(correctnessNote(check('Paris 2324, Lyon 1376.'), { total: 2, grounded: 2 })).toBeUndefined();
    expect(correctnessNote(check('Paris 2324, up 12%.'), { total: 2, grounded: 1 })).toBeUndefined();
  });
});

describe('the answer rebuilt from what the code computed (text protocol)', () => {
  const tableSource = { kind: 'table' as const, file: 'viz/bar-1.csv', text: TABLE };
  const evidenceFor = (answer: string, sources: SourceText[], codes = [SUM_CODE]) =>
    checkCorrectness({ question: QUESTION, codes, answer, sources });
  const rebuild = (answer: string, sources: SourceText[], codes = [SUM_CODE]) =>
    computedAnswer(answer, evidenceFor(answer, sources, codes), groundAnswer(answer, sources));

  it("the 1.5B's retyped 1000, 2000, 3000 next to the right table: the table is shown instead", () => {
    const r = rebuild('Paris: 1000, Lyon: 2000, Nice: 3000.', [tableSource]);
    expect(r?.how).toBe('replaced');
    expect(r?.text).toBe(
      `${COMPUTED_LEAD} (the table the code saved, \`viz/bar-1.csv\`):\n\n| city | visits |\n| --- | --- |\n| Paris | 2324 |\n| Lyon | 1376 |\n| Nice | 2290 |\n\n${REPLACED_NOTE}`,
    );
  });

  it('an unfound number with no table: what the code printed is shown, each line quoted; a long table is cut', () => {
    const printed = { kind: 'stdout' as const, text: 'total 1988\n' };
    expect(rebuild('The total is 2000.', [printed])?.text).toBe(
      `${COMPUTED_LEAD} (what the code printed):\n\n> total 1988\n\n${REPLACED_NOTE}`,
    );
    // A long dump (a whole column printed) is not an answer: left as it is, for the note.
    const long = { kind: 'stdout' as const, text: Array.from({ length: 30 }, (_, i) => `row ${i}`).join('\n') };
    expect(rebuild('The total is 2000.', [long])).toBeUndefined();
    const longTable = {
      kind: 'table' as const,
      file: 'viz/t.csv',
      text: ['city,visits', ...Array.from({ length: 30 }, (_, i) => `c${i},${i}`)].join('\n'),
    };
    const text = rebuild('c1: 500.', [longTable])!.text;
    expect(text).toContain('| c18 | 18 |\n| … (more rows in the file) |');
    expect(text).not.toContain('c19');
  });

  it('a right answer is never touched; one stating no number gets the result below it', () => {
    expect(rebuild('Paris 2,324, Lyon 1376 and Nice 2290.', [tableSource])).toBeUndefined();
    expect(rebuild('The average is 4.42.', [{ kind: 'stdout', text: '4.4166\n' }])).toBeUndefined();
    expect(rebuild('Paris has the most visits.', [tableSource])).toMatchObject({
      how: 'appended',
      text: expect.stringMatching(/^Paris has the most visits\.\n\n\*\*Computed result\*\*/),
    });
  });

  it("a saved table holding no value (the 1.5B's `index,price` / `59,`) is no result: the answer is left for the note", () => {
    const empty = { kind: 'table' as const, file: 'viz/table-1.csv', text: 'index,price\n59,\n' };
    const echo = {
      kind: 'stdout' as const,
      text: "{'id': 'table-1', 'type': 'table', 'dataFile': 'viz/table-1.csv'}\n",
    };
    expect(rebuild('The 7-day moving average on the last date is 102.67.', [empty, echo], [])).toBeUndefined();
    expect(rebuild('The average is 102.67.', [{ ...empty, text: 'index,price\n59,NaN\n' }], [])).toBeUndefined();
    // A one-column table's values are in its only column; a value beside the label is a value.
    const single = { kind: 'table' as const, file: 'viz/t.csv', text: 'price\n83.65\n' };
    expect(rebuild('The average is 102.67.', [single], [])?.how).toBe('replaced');
    expect(rebuild('The average is 102.67.', [{ ...empty, text: 'index,price\n59,83.65\n' }], [])?.how).toBe(
      'replaced',
    );
  });

  it('nothing computed, or the wrong operation (its result answers another question): left for the note', () => {
    expect(rebuild('The total is 2000.', [])).toBeUndefined();
    const counts = { kind: 'table' as const, file: 'viz/counts.csv', text: 'city,count\nParis,8\nLyon,8\n' };
    expect(rebuild('Paris 9, Lyon 9.', [counts], [COUNT_CODE])).toBeUndefined();
  });
});
