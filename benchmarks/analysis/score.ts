import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { VisualizationOutput } from '../../analysis/conversation/types';
import { CHECK_FAILED_LEAD } from '../../analysis/grounding/correctnessNote';
import type { Expected } from './dataset';
import { showsValues, type ExpectedValues } from './shownValues';

export interface TurnOutput {
  answer: string;
  visualizations: VisualizationOutput[];
  workspaceDir: string;
}

export interface Score {
  pass: boolean;
  reason: string;
}

/**
 * Checks one request's outcome: a number (or every number of a list) in the answer, names in order, a phrase, a chart of
 * the right type and columns, a table; a chart or table whose expected values are known must show them (not only its
 * columns' names).
 */
export async function scoreAnalysis(expected: Expected, turn: TurnOutput): Promise<Score> {
  const out = { ...turn, answer: withoutCheckNote(turn.answer) };
  switch (expected.kind) {
    case 'number': {
      const found = numbersIn(out.answer).some((n) => Math.abs(n - expected.value) <= expected.tolerance);
      return {
        pass: found,
        reason: found ? 'number found' : `no number within ${expected.tolerance} of ${expected.value} in the answer`,
      };
    }
    case 'list': {
      let at = -1;
      const inOrder = expected.values.every((v) => (at = out.answer.indexOf(v, at + 1)) >= 0);
      return {
        pass: inOrder,
        reason: inOrder ? 'all names in order' : `the answer does not list ${expected.values.join(', ')} in order`,
      };
    }
    case 'text':
      return out.answer.includes(expected.contains)
        ? { pass: true, reason: 'phrase found' }
        : { pass: false, reason: `the answer does not mention ${expected.contains}` };
    case 'numbers': {
      const found = numbersIn(out.answer);
      const missing = expected.values.filter((v) => !found.some((n) => Math.abs(n - v) <= expected.tolerance));
      return {
        pass: !missing.length,
        reason: missing.length ? `the answer does not state ${missing.join(', ')}` : 'every number found',
      };
    }
    case 'chart':
      return expected.values
        ? chartWithValues(expected, { values: expected.values, proportional: expected.proportional }, out)
        : chartWithColumns(expected, out);
    case 'table':
      return expected.values
        ? tableWithValues(expected, { values: expected.values, proportional: expected.proportional }, out)
        : tableWithShape(expected, out);
  }
}

type ChartExpected = Extract<Expected, { kind: 'chart' }>;
type TableExpected = Extract<Expected, { kind: 'table' }>;

function chartWithColumns(expected: ChartExpected, out: TurnOutput): Score {
  const ok = out.visualizations.some(
    (v) =>
      v.type === expected.type &&
      chartColumns(v).x === expected.x &&
      expected.y.every((y) => chartColumns(v).y.includes(y)),
  );
  return { pass: ok, reason: ok ? 'chart found' : `no ${expected.type} of ${expected.y.join('+')} by ${expected.x}` };
}

/** A chart of the right type whose data file shows the expected value per label in the columns it plots. */
async function chartWithValues(expected: ChartExpected, shown: ExpectedValues, out: TurnOutput): Promise<Score> {
  for (const v of out.visualizations.filter((o) => o.type === expected.type && o.dataFile)) {
    const csv = await readDataFile(out.workspaceDir, v.dataFile!);
    const { x, y } = chartColumns(v);
    if (csv !== undefined && showsValues(csv, shown, { label: x, values: y }))
      return { pass: true, reason: 'chart found with the right values' };
  }
  return {
    pass: false,
    reason: `no ${expected.type} showing ${expected.y.join('+')} by ${expected.x} with the right values (${valuesText(shown)})`,
  };
}

async function tableWithShape(expected: TableExpected, out: TurnOutput): Promise<Score> {
  for (const v of out.visualizations.filter((o) => o.type === 'table' && o.dataFile)) {
    const shape = await csvShape(path.join(out.workspaceDir, v.dataFile!));
    if (shape && expected.columns.every((c) => shape.columns.includes(c)) && shape.rows === expected.rows)
      return { pass: true, reason: 'table found' };
  }
  return { pass: false, reason: `no table with columns ${expected.columns.join(', ')} and ${expected.rows} rows` };
}

/** A saved table showing the expected value per label (one row each), whatever its columns are named. */
async function tableWithValues(expected: TableExpected, shown: ExpectedValues, out: TurnOutput): Promise<Score> {
  for (const v of out.visualizations.filter((o) => o.type === 'table' && o.dataFile)) {
    const csv = await readDataFile(out.workspaceDir, v.dataFile!);
    if (csv !== undefined && showsValues(csv, shown))
      return { pass: true, reason: 'table found with the right values' };
  }
  return {
    pass: false,
    reason: `no table showing ${expected.columns.join(' → ')} with the right values (${valuesText(shown)})`,
  };
}

function valuesText(expected: ExpectedValues): string {
  return Object.entries(expected.values)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}

async function readDataFile(workspaceDir: string, dataFile: string): Promise<string | undefined> {
  return readFile(path.join(workspaceDir, dataFile), 'utf8').catch(() => undefined); // the answer named no such file: scored as a miss
}

/**
 * The answer without the note the answer check puts under an answer it found wrong: that note quotes the table the code
 * saved, and an answer flagged as likely wrong is not scored right on the numbers the note shows.
 */
export function withoutCheckNote(answer: string): string {
  const at = answer.indexOf(CHECK_FAILED_LEAD);
  return at < 0 ? answer : answer.slice(0, at).trimEnd();
}

/** Numbers as written in prose or markdown: 1,988 · **47** · -0.5 · 6.2e3. */
export function numbersIn(text: string): number[] {
  return [...text.replace(/(\d),(\d{3})/g, '$1$2').matchAll(/-?\d+(?:\.\d+)?(?:e[+-]?\d+)?/gi)].map((m) =>
    Number(m[0]),
  );
}

function chartColumns(v: VisualizationOutput): { x?: string; y: string[] } {
  const c = v.config ?? {};
  if (v.type === 'pie_chart') return { x: c.labelColumn, y: c.valueColumn ? [c.valueColumn] : [] };
  return { x: c.xColumn, y: Array.isArray(c.yColumn) ? c.yColumn : c.yColumn ? [c.yColumn] : [] };
}

async function csvShape(file: string): Promise<{ columns: string[]; rows: number } | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined); // the answer named no such file: no shape, scored as a miss
  if (text === undefined) return undefined;
  const lines = text.split(/\r?\n/).filter((l) => l.trim());
  return {
    columns: (lines[0] ?? '').split(',').map((c) => c.trim().replace(/^"|"$/g, '')),
    rows: Math.max(0, lines.length - 1),
  };
}
