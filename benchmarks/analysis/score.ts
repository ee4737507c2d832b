import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { VisualizationOutput } from '../../analysis/conversation/types';
import { CHECK_FAILED_LEAD } from '../../analysis/grounding/correctnessNote';
import type { Expected } from './dataset';

export interface TurnOutput {
  answer: string;
  visualizations: VisualizationOutput[];
  workspaceDir: string;
}

export interface Score {
  pass: boolean;
  reason: string;
}

/** Checks one request's outcome: a number in the answer, names in order, a phrase, a chart of the right type and columns, a table. */
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
    case 'chart': {
      const ok = out.visualizations.some(
        (v) =>
          v.type === expected.type &&
          chartColumns(v).x === expected.x &&
          expected.y.every((y) => chartColumns(v).y.includes(y)),
      );
      return {
        pass: ok,
        reason: ok ? 'chart found' : `no ${expected.type} of ${expected.y.join('+')} by ${expected.x}`,
      };
    }
    case 'table': {
      for (const v of out.visualizations.filter((o) => o.type === 'table' && o.dataFile)) {
        const shape = await csvShape(path.join(out.workspaceDir, v.dataFile!));
        if (shape && expected.columns.every((c) => shape.columns.includes(c)) && shape.rows === expected.rows)
          return { pass: true, reason: 'table found' };
      }
      return { pass: false, reason: `no table with columns ${expected.columns.join(', ')} and ${expected.rows} rows` };
    }
  }
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
