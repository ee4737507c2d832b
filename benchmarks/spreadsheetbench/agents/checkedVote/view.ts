import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { programTargets } from '../sheetcopilot/targets';
import { VIEW_BUDGET_CHARS } from './settings';

const PROGRAM = path.join(path.dirname(fileURLToPath(import.meta.url)), 'workbook_view.py');
let programText: string | undefined;

/**
 * The workbook-view program for one input (run in a sandbox that holds only that input): its inputs as Python
 * literals, then workbook_view.py. JSON is read back by json.loads, so every sheet name stays byte-exact.
 */
export function workbookViewProgram(
  inputPathInside: string,
  answerPosition: string,
  budget = VIEW_BUDGET_CHARS,
): string {
  programText ??= readFileSync(PROGRAM, 'utf8');
  const literal = (v: unknown) => `__import__('json').loads(${JSON.stringify(JSON.stringify(v))})`;
  return [
    `INPUT_PATH = ${literal(inputPathInside)}`,
    `TARGETS = ${literal(programTargets(answerPosition))}`,
    `BUDGET = ${budget}`,
    programText,
  ].join('\n');
}
