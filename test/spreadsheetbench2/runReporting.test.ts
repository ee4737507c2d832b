/**
 * A SpreadsheetBench 2 run shown and reported: generated tasks in the four categories, outputs copied from the
 * generated variants, scored and recorded as a run records them (test/spreadsheetbench2/v2RunFolder.ts: no agent
 * exists yet). finalize writes the official file per category (equal to `eval` on the same outputs) and a summary with
 * per-category figures; `show`, `compare`, `report` (with a rejudge stopped before its end, as the summary says it) and
 * the run, task and output routes read the run. Bad input — a
 * dataset missing a file, an answer position naming no sheet, an unreadable output, a missing output — gives a
 * message naming the task, and every other task is scored.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { benchmarkNamed } from '../../benchmarks';
import { evaluateV2Outputs, V2RunFiles, type V2TaskResult } from '../../benchmarks/spreadsheetbench2';
import { compareRunOutcomes, loadRunOutcomes } from '../../benchmarks/report/comparison';
import { TaskViewError, type TaskView } from '../../benchmarks/report/taskView';
import { registerShowCommand } from '../../cli/commands/show';
import { runPagesRoutes } from '../../server/routes/runPages';
import { recordRejudgeStart } from '../../lib/runStore/rejudgeRecord';
import { hasSandboxPython, runPython } from '../scoring/oracle';
import { buildV2Run, V2_MODEL, V2_SETTING } from './v2RunFolder';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'sb2-run-'));
const runsDir = path.join(tmp, 'runs');
const broken = path.join(tmp, 'broken');
const v2 = benchmarkNamed('spreadsheetbench2');
const result = (run: string, id: string) =>
  JSON.parse(readFileSync(path.join(runsDir, run, 'results', `${id}.json`), 'utf8')) as V2TaskResult;

/** Run A: one output unreadable, one missing, one beyond the 1% tolerance, one with a changed regression cell. */
const OUTPUT_A: Record<string, string | Buffer> = {
  tpl0: Buffer.from('this is no workbook'),
  vis0: 'none',
  dbg_plain: 'beyond1',
  fm0: 'regression_changed',
};

afterAll(() => rmSync(tmp, { recursive: true, force: true }));
beforeAll(async () => {
  if (!hasSandboxPython) return;
  runPython([path.resolve('test/spreadsheetbench2/fixtures/make_v2_tasks.py'), tmp], '');
  // The dataset as given is missing fm1's answer; fm_nosheet's answer position names a sheet its answer lacks.
  cpSync(path.join(tmp, 'data'), broken, { recursive: true });
  rmSync(path.join(broken, 'Financial_Model/spreadsheet/fm1/answer.xlsx'));
  const variants = path.join(tmp, 'outputs');
  await buildV2Run(runsDir, { runId: 'v2-a', dataset: broken, variants, outputOf: (id) => OUTPUT_A[id] });
  await buildV2Run(runsDir, { runId: 'v2-b', dataset: broken, variants });
  for (const run of ['v2-a', 'v2-b']) await v2.finalize(path.join(runsDir, run));
}, 180_000);

describe.skipIf(!hasSandboxPython)('a SpreadsheetBench 2 run: scored, finalized, shown, compared, reported', () => {
  it('bad input names the task and the cause; every other task is scored', () => {
    expect(result('v2-a', 'fm1').failure).toEqual({
      class: 'dataset',
      message: 'task fm1 (Financial_Model): answer file spreadsheet/fm1/answer.xlsx is missing',
    });
    expect(result('v2-a', 'fm_nosheet').failure?.message).toBe(
      'task fm_nosheet (Financial_Model): answer_position "Ghost!A1:B5" names sheet "Ghost", which the answer spreadsheet/fm_nosheet/answer.xlsx does not have (sheets: Model)',
    );
    const unreadable = result('v2-a', 'tpl0');
    expect(unreadable.failure).toBeUndefined();
    expect(unreadable.hard).toBe(0);
    expect(unreadable.reasons[0]).toMatch(
      /^task tpl0 \(Template\): the output workbook tpl0_output\.xlsx could not be read: \S/,
    );
    expect(result('v2-a', 'vis0').reasons[0]).toBe(
      'task vis0 (Visualization): no output was written (vis0_output.xlsx does not exist)',
    );
    expect(result('v2-a', 'vis0').v2.missingOutput).toBe(true);
    // The rest of the run went on: the tasks with right outputs pass.
    for (const id of ['fm2', 'fm_quoted', 'dbg_color', 'dbg_embedded', 'dbg_embedded_shared', 'fm_errf'])
      expect(result('v2-a', id).hard, id).toBe(1);
  });

  it("finalize writes each category's official file, equal to eval on the same outputs, and per-category figures", async () => {
    const files = new V2RunFiles(path.join(runsDir, 'v2-a'), V2_SETTING, V2_MODEL);
    const triples = (r: { scores: { id: unknown; accuracy: number; regression_accuracy: number }[] }) =>
      r.scores.map((s) => [s.id, s.accuracy, s.regression_accuracy]);
    for (const category of ['Debugging', 'Financial_Model', 'Template', 'Visualization']) {
      const written = JSON.parse(readFileSync(files.officialResultPath(category), 'utf8')) as Parameters<
        typeof triples
      >[0] & { accuracy: number; missing_outputs: number; modification_accuracy: number };
      const official = (await evaluateV2Outputs(path.join(broken, category), files.outputsDir))!.result;
      expect(triples(written), category).toEqual(triples(official));
      expect([written.accuracy, written.missing_outputs, written.modification_accuracy], category).toEqual([
        official.accuracy,
        official.missing_outputs,
        official.modification_accuracy,
      ]);
    }
    const summary = JSON.parse(readFileSync(path.join(runsDir, 'v2-a', 'summary.json'), 'utf8')) as {
      byType: Record<string, { tasks: number; hard: number }>;
      figures: { name: string; overall: number; byGroup: Record<string, number> }[];
      failureClasses: Record<string, number>;
    };
    expect(Object.keys(summary.byType).sort()).toEqual(['Debugging', 'Financial_Model', 'Template', 'Visualization']);
    expect(summary.figures.map((f) => f.name)).toEqual(['accuracy', 'regression accuracy', 'modification accuracy']);
    expect(summary.figures[0].byGroup.Template).toBe(0); // tpl0 unreadable, tpl_allnew has no regression cell
    expect(summary.failureClasses).toEqual({ dataset: 2 });
    const lines = await v2.summaryLines(path.join(runsDir, 'v2-a'));
    expect(lines[0]).toMatch(/^accuracy \(13\/13 tasks\): \d+\.\d\d%$/);
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}Debugging: \d+\.\d\d% {2}\(4 tasks\)$/));
    expect(lines).toContainEqual(expect.stringMatching(/^regression accuracy \d+\.\d\d% \(Debugging /));
  });

  it('show: the verdict with regression and modification tallies and each differing cell', async () => {
    const view = await v2.describeTask!(path.join(runsDir, 'v2-a'), 'dbg_plain');
    expect(view).toMatchObject({ benchmark: 'spreadsheetbench2', instructionType: 'Debugging', status: 'scored' });
    const [tc] = view.testCases;
    expect(tc.cells).toEqual({
      regression: { correct: 4, total: 4, accuracy: 1 },
      modification: { correct: 0, total: 1, accuracy: 0 },
    });
    expect(tc.mismatches).toEqual([
      {
        cell: 'Sheet1!B4',
        kind: 'modification',
        check: 'value',
        expected: { value: 7.25, type: 'number' },
        got: { value: 7.395, type: 'number' },
      },
    ]);
    expect(tc.output).toBe(`outputs/${V2_SETTING}_${V2_MODEL}/dbg_plain_output.xlsx`);
    const regression = (await v2.describeTask!(path.join(runsDir, 'v2-a'), 'fm0')).testCases[0];
    expect(regression.mismatches[0]).toMatchObject({ kind: 'regression', got: { value: 12345 } });
    const failed = await v2.describeTask!(path.join(runsDir, 'v2-a'), 'fm1');
    expect(failed.notes).toEqual(['no cell diff recorded: the task failed before its output was compared']);
    await expect(v2.describeTask!(path.join(runsDir, 'v2-a'), '../fm1')).rejects.toThrow(TaskViewError);
    const text = await showText([path.join(runsDir, 'v2-a'), 'dbg_plain']);
    expect(text).toContain('    Sheet1!B4  expected 7.25 (number)  got 7.395 (number)  [modification value]');
    expect(text).toContain(
      '    regression cells (to keep): 4 of 4 right (1.0000); modification cells (to change): 0 of 1 right (0.0000)',
    );
  });

  it('compare: per category, and the tasks each run passes alone', async () => {
    const [a, b] = await Promise.all(['v2-a', 'v2-b'].map((r) => loadRunOutcomes(path.join(runsDir, r))));
    const comparison = compareRunOutcomes([a, b]);
    expect(comparison.runs[0].byGroup.map((g) => g.group)).toEqual([
      'Debugging',
      'Financial_Model',
      'Template',
      'Visualization',
    ]);
    expect(comparison.pairs[0].hard.taskIds.bOnly.sort()).toEqual(['dbg_plain', 'fm0', 'tpl0', 'vis0']);
    expect(comparison.pairs[0].hard.taskIds.aOnly).toEqual([]);
  });

  it('report: the figures per category, every task, and the comparison with a baseline', async () => {
    const out = path.join(tmp, 'report-a');
    const written = await v2.writeReport({
      runDir: path.join(runsDir, 'v2-a'),
      compareDir: path.join(runsDir, 'v2-b'),
      outDir: out,
    });
    expect(written).toMatchObject({ finishedTasks: 13, pendingTasks: 0 });
    const md = readFileSync(written.markdown, 'utf8');
    expect(md).toContain('|  | tasks | accuracy | regression accuracy | modification accuracy |');
    for (const c of ['overall', 'Debugging', 'Financial_Model', 'Template', 'Visualization'])
      expect(md).toMatch(new RegExp(`^\\| ${c} \\| \\d+ \\| \\d+\\.\\d\\d% \\[`, 'm'));
    expect(md).toMatch(/^\| tpl0 \| Template \| fail \| 0\.0000 \| 0\.0000 \| .*could not be read/m);
    expect(md).toMatch(/^\| fm1 \| Financial_Model \| failed \(dataset\) \|/m);
    expect(md).toContain('## Compared with v2-b (B = v2-a, paired over 13 tasks)');
    expect(md).toMatch(/^\| v2-b \| dbg_plain, fm0, tpl0, vis0 \|$/m);
    expect(readFileSync(written.html, 'utf8')).toContain('<h2>Tasks</h2>');
    // The charts' judging as the summary says it (no judgment recorded for vis0: unjudged, said, counted neither way).
    expect(md).toContain(
      '## Visualization charts\n\n| judging |\n|---|\n' +
        '| Visualization charts: 0 of 1 tasks judged (not_judged_yet 1); judge: 0 calls, $0.0000 |\n' +
        '| UNJUDGED: 1 Visualization task(s) have no chart verdict (not counted as pass or fail): no chart judgment ' +
        'recorded yet |\n\n',
    );
    expect(md).not.toContain('UNFINISHED');
  });

  it("report of a run not yet summarized: the charts' judging read from the judgments", async () => {
    const runDir = path.join(tmp, 'unsummarized', 'v2-a');
    cpSync(path.join(runsDir, 'v2-a'), runDir, { recursive: true });
    rmSync(path.join(runDir, 'summary.json'));
    const written = await v2.writeReport({ runDir, outDir: path.join(tmp, 'report-unsummarized') });
    expect(readFileSync(written.markdown, 'utf8')).toContain(
      '| Visualization charts: 0 of 1 tasks judged (not_judged_yet 1); judge: 0 calls, $0.0000 |\n',
    );
  });

  it('report: a rejudge of the charts stopped before its end is said as the summary says it, with the command', async () => {
    // A run whose rejudge recorded its start and never its end (as one killed with kill -9 leaves it).
    const runDir = path.join(tmp, 'rejudging', 'v2-a');
    cpSync(path.join(runsDir, 'v2-a'), runDir, { recursive: true });
    const tag = 'rejudge-stopped';
    writeFileSync(path.join(runDir, `${tag}.json`), JSON.stringify(['vis0']));
    await recordRejudgeStart(runDir, tag, { requested: { model: 'scripted-vision' } });
    const unfinished =
      `UNFINISHED: rejudge ${tag} of 1 Visualization task(s) stopped before its end: some of their judgments are ` +
      `new, the figures above are older; run \`sheetbench rejudge ${runDir}\` to finish it`;
    expect(await v2.summaryLines(runDir)).toContain(`  ${unfinished}`);
    const written = await v2.writeReport({ runDir, outDir: path.join(tmp, 'report-rejudging') });
    const md = readFileSync(written.markdown, 'utf8');
    // Under the charts' judging as the summary recorded it, before the tasks.
    expect(md).toMatch(
      /## Visualization charts\n\n\| judging \|\n\|---\|\n\| Visualization charts: 0 of 1 .*\n\| UNJUDGED: .*\n/,
    );
    expect(md).toContain(
      `| UNJUDGED: 1 Visualization task(s) have no chart verdict (not counted as pass or fail): no chart judgment recorded yet |\n| ${unfinished} |\n\n## Tasks`,
    );
    expect(readFileSync(written.html, 'utf8')).toContain('UNFINISHED: rejudge rejudge-stopped of 1 Visualization');
  });

  describe('the run, task and output routes on a v2 run', () => {
    const pages = () => runPagesRoutes({ runsDir });
    const json = async (p: string) => {
      const res = await pages().request(p);
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };

    it('run page: metrics by category and the release figures; task page: tallies and mismatches', async () => {
      const run = await json('/api/runs/v2-a');
      expect(run.status).toBe(200);
      const metrics = run.body.metrics as { byGroup: { group: string }[] };
      expect(metrics.byGroup.map((g) => g.group)).toEqual([
        'Debugging',
        'Financial_Model',
        'Template',
        'Visualization',
      ]);
      expect((run.body.figures as { name: string }[]).map((f) => f.name)).toEqual([
        'accuracy',
        'regression accuracy',
        'modification accuracy',
      ]);
      const task = await json('/api/runs/v2-a/tasks/dbg_plain');
      expect(task.status).toBe(200);
      const view = task.body as unknown as TaskView & { grids: boolean };
      expect(view.grids).toBe(false);
      expect(view.testCases[0].cells?.modification).toEqual({ correct: 0, total: 1, accuracy: 0 });
    });

    it('the output downloads as a workbook that runs nothing; no second test case, no traversal, no symlink out', async () => {
      const res = await pages().request('/api/runs/v2-a/tasks/dbg_plain/cases/1/output');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="dbg_plain_output.xlsx"');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBeTruthy();
      expect((await pages().request('/api/runs/v2-a/tasks/dbg_plain/cases/2/output')).status).toBe(404);
      for (const task of ['../v2-b', '..%2F..%2Fsummary', encodeURIComponent('../../run.json'), '%2e%2e'])
        expect((await pages().request(`/api/runs/v2-a/tasks/${task}/cases/1/output`)).status, task).toBe(404);
      // A run id that leaves the runs folder is refused before anything is read.
      const outside = await pages().request(
        `/api/runs/${encodeURIComponent('../report-a')}/tasks/dbg_plain/cases/1/output`,
      );
      expect(outside.status).toBe(400);
      const files = new V2RunFiles(path.join(runsDir, 'v2-a'), V2_SETTING, V2_MODEL);
      const secret = path.join(tmp, 'secret.xlsx');
      cpSync(files.outputPath('fm2'), secret);
      unlinkSync(files.outputPath('fm2'));
      symlinkSync(secret, files.outputPath('fm2'));
      expect((await pages().request('/api/runs/v2-a/tasks/fm2/cases/1/output')).status).toBe(404);
    });
  });
});

async function showText(args: string[]): Promise<string> {
  const program = new Command().exitOverride();
  registerShowCommand(program);
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    await program.parseAsync(['node', 'sheetbench', 'show', ...args]);
    return out.mock.calls.map((c) => String(c[0])).join('');
  } finally {
    out.mockRestore();
  }
}
