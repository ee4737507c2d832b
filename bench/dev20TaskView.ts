/**
 * A dev20 task and checked_vote's view of its first test case's input, as the local-inference benches prompt with
 * (`llm-local-prefix.ts`, `llm-local-threads.ts`, `llm-local-cross-task.ts`). The view is made by the sandbox's Python.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sandboxPythonPath } from '../lib/sandbox/paths';
import type { SheetTask } from '../benchmarks/spreadsheetbench/dataset';
import { workbookViewProgram } from '../benchmarks/spreadsheetbench/agents/checkedVote/view';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
(globalThis as { __dirname?: string }).__dirname ??= path.join(REPO, 'test/helpers');
const { sharedData } = await import('../test/helpers/sharedData');
const DEV20 = sharedData('spreadsheetbench-dev20');

export interface Dev20TaskView {
  task: SheetTask;
  view: string;
}

/** The dev20 task `id` and the workbook view of its first input; throws naming the id when dev20 has no such task. */
export function dev20TaskView(id: string): Dev20TaskView {
  const tasks = JSON.parse(readFileSync(path.join(DEV20, 'dataset.json'), 'utf8')) as SheetTask[];
  const task = tasks.find((t) => String(t.id) === id);
  if (!task) throw new Error(`task ${id}: not a dev20 task`);
  const input = path.join(DEV20, task.spreadsheet_path, `1_${id}_input.xlsx`);
  const view = execFileSync(sandboxPythonPath(), ['-c', workbookViewProgram(input, task.answer_position)]).toString();
  return { task, view };
}
