/** SpreadsheetBench 2 folders: detection, loading, dataset problems named by task, and `sheetbench eval`'s files. */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { detectBenchmark } from '../../benchmarks';
import { loadV2Dataset, v2TaskProblems } from '../../benchmarks/spreadsheetbench2';
import { registerEvalCommands } from '../../cli/commands/eval';
import { hasSandboxPython, runPython } from '../scoring/oracle';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'sb2-dataset-'));
const data = path.join(tmp, 'data');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
beforeAll(() => {
  if (hasSandboxPython) runPython([path.resolve('test/spreadsheetbench2/fixtures/make_v2_tasks.py'), tmp], '');
}, 120_000);

async function cli(args: string[]): Promise<{ out: string; err: string }> {
  const program = new Command().exitOverride();
  registerEvalCommands(program);
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    await program.parseAsync(['node', 'sheetbench', ...args]);
    const text = (s: typeof out) => s.mock.calls.map((c) => String(c[0])).join('');
    return { out: text(out), err: text(err) };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe.skipIf(!hasSandboxPython)('SpreadsheetBench 2 datasets', () => {
  it('detects the parent of the categories and a single category folder', async () => {
    const all = await detectBenchmark(data);
    expect(all).toMatchObject({ benchmark: { name: 'spreadsheetbench2' }, edition: 'v2', how: 'detected' });
    expect(all.dataset.tasks).toHaveLength(13);
    const one = await detectBenchmark(path.join(data, 'Debugging'));
    expect(one.dataset.tasks.map((t) => t.id)).toEqual([
      'dbg_color',
      'dbg_embedded',
      'dbg_embedded_shared',
      'dbg_plain',
    ]);
    expect(one.dataset.tasks[0]).toMatchObject({
      instruction: 'do dbg_color',
      spreadsheet_path: 'spreadsheet/Color_dbg_color/input.xlsx',
      golden_response_path: 'spreadsheet/Color_dbg_color/answer.xlsx',
      answer_position: 'Sheet1!A1:B5',
      category: 'Debugging',
    });
    expect(one.benchmark.select(one.dataset.tasks, { ids: ['dbg_plain'] }).map((t) => t.id)).toEqual(['dbg_plain']);
    expect(() => one.benchmark.select(one.dataset.tasks, { ids: ['nope'] })).toThrow('unknown task id(s): nope');
  });

  it('names the task of a missing file and of an answer position naming no sheet', async () => {
    const copy = path.join(tmp, 'broken');
    cpSync(path.join(data, 'Financial_Model'), copy, { recursive: true });
    rmSync(path.join(copy, 'spreadsheet/fm1/answer.xlsx'));
    const tasks = (await loadV2Dataset(copy))!;
    const problems = (await Promise.all(tasks.map(v2TaskProblems))).flat();
    expect(problems).toEqual([
      'task fm1 (broken): answer file spreadsheet/fm1/answer.xlsx is missing',
      'task fm_nosheet (broken): answer_position "Ghost!A1:B5" names sheet "Ghost", which the answer spreadsheet/fm_nosheet/answer.xlsx does not have (sheets: Model)',
    ]);
  });

  it('refuses a record without its answer position, naming the task and the field', async () => {
    const copy = path.join(tmp, 'badrecord');
    cpSync(path.join(data, 'Template'), copy, { recursive: true });
    const file = path.join(copy, 'dataset.json');
    const records = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>[];
    delete records[1].answer_position;
    writeFileSync(file, JSON.stringify(records));
    await expect(loadV2Dataset(copy)).rejects.toThrow(
      /^task tpl_allnew: record 1 of .*dataset\.json: answer_position: /,
    );
  });

  it('eval writes the official result file and per-category totals', async () => {
    const outFile = path.join(tmp, 'res', 'v2.json');
    const printed = await cli([
      'eval',
      '--dataset',
      data,
      '--outputs',
      path.join(tmp, 'outputs/exact'),
      '--out',
      outFile,
    ]);
    const result = JSON.parse(readFileSync(outFile, 'utf8')) as {
      total_tests: number;
      accuracy: number;
      scores: Record<string, unknown>[];
    };
    expect(Object.keys(result)).toEqual([
      'total_tests',
      'missing_outputs',
      'regression_accuracy',
      'modification_accuracy',
      'accuracy',
      'interaction_turns_stats',
      'scores',
    ]);
    expect(Object.keys(result.scores[0])).toEqual([
      'id',
      'error_message',
      'regression_accuracy',
      'modification_accuracy',
      'accuracy',
      'interaction_turns',
    ]);
    expect(readFileSync(outFile, 'utf8')).toMatch(/"accuracy": 1\.0,/);
    const failing = result.scores.filter((s) => s.accuracy === 0).map((s) => s.id);
    // An answer copy fails only where evaluation.py scores 0 whatever the output: a sheet no workbook has (no cells),
    // and a task whose range holds no regression cell (a ratio over 0 cells is 0.0).
    expect(failing.sort()).toEqual(['fm_nosheet', 'tpl_allnew']);
    const summary = JSON.parse(readFileSync(`${outFile}.summary.json`, 'utf8')) as {
      categories: Record<string, { total_tests: number }>;
    };
    expect(Object.keys(summary.categories)).toEqual(['Debugging', 'Financial_Model', 'Template', 'Visualization']);
    expect(printed.out).toMatch(/Financial_Model: 6 tasks/);
    expect(printed.err).toMatch(/dataset problem: task fm_nosheet \(Financial_Model\)/);
  });
});
