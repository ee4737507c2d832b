/**
 * report.md and report.html of a SpreadsheetBench 2 run: the release's figures overall and per category (accuracy with
 * its 95% interval over tasks, regression and modification accuracy, missing outputs), the Visualization charts' judging
 * and a rejudge of them stopped before its end (as the summary says them), every task's verdict with its reason, and,
 * given a baseline run, the two paired task by task (accuracy difference, McNemar's p, the tasks each passes alone).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readJsonIfPresent } from '../../../lib/json';
import { taskKey } from '../../../lib/runStore/taskRecord';
import type { WrittenReport } from '../../benchmark';
import { compareRunOutcomes, loadRunOutcomes, runMetrics, type PairComparison } from '../../report/comparison';
import { tablesHtml, tablesMarkdown, type ReportTable } from '../../report/tables';
import type { Interval } from '../../report/statistics/bootstrap';
import type { V2Run } from '../run/files';
import { summarizeV2Run } from '../run/finalize';
import { v2TaskResultSchema, type V2TaskResult } from '../run/taskResult';
import type { RunSummary } from '../../report/runSummary';
import { unfinishedRejudgeLines } from '../../report/unfinishedRejudge';
import { runSummarySchema } from '../../report/runSummarySchema';
import { chartJudgingOf, chartSummaryLines, chartSummarySchema } from '../visualization/chartSummary';

const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
const ci = (i: Interval) => `${pct(i.mean)} [${pct(i.ci95[0])}, ${pct(i.ci95[1])}]`;

function figuresTable(summary: RunSummary, accuracy: Map<string, Interval>): ReportTable {
  const figure = (name: string) => summary.figures?.find((f) => f.name === name);
  const [acc, reg, mod] = ['accuracy', 'regression accuracy', 'modification accuracy'].map(figure);
  const row = (label: string, tasks: number, pick: (f: NonNullable<typeof acc>) => number | undefined) => [
    label,
    String(tasks),
    accuracy.get(label) ? ci(accuracy.get(label)!) : acc ? pct(pick(acc) ?? 0) : '–',
    reg ? pct(pick(reg) ?? 0) : '–',
    mod ? pct(pick(mod) ?? 0) : '–',
  ];
  return {
    title: 'Scores (evaluation.py figures; accuracy with its 95% interval over tasks)',
    header: ['', 'tasks', 'accuracy', 'regression accuracy', 'modification accuracy'],
    rows: [
      row('overall', summary.tasks, (f) => f.overall),
      ...Object.entries(summary.byType).map(([c, s]) => row(c, s.tasks, (f) => f.byGroup[c])),
    ],
  };
}

/**
 * The Visualization charts' judging as the run's summary records it and `run` prints it (judged, the chart accuracy,
 * UNJUDGED and why, the judge's spend; recomputed from the judgments while the run has no summary yet), then a rejudge
 * of them stopped before its end (its judgments newer than those figures); none for a run without either.
 */
async function chartJudgingTables(run: V2Run): Promise<ReportTable[]> {
  const recorded = await readJsonIfPresent(run.layout.summaryPath, runSummarySchema);
  const charts = recorded ? chartSummarySchema.optional().parse(recorded.charts) : (await chartJudgingOf(run)).charts;
  const lines = [
    ...chartSummaryLines(charts),
    ...(await unfinishedRejudgeLines(run.layout.root, 'Visualization task(s)')),
  ].map((line) => line.trim());
  return lines.length
    ? [{ title: 'Visualization charts', header: ['judging'], rows: lines.map((line) => [line]) }]
    : [];
}

async function taskTable(run: V2Run): Promise<ReportTable> {
  const rows: string[][] = [];
  for (const task of run.tasks) {
    const key = taskKey(task.id);
    const r = await readJsonIfPresent(run.layout.taskResultPath(key), v2TaskResultSchema);
    rows.push(r ? taskRow(key, task.category, r as V2TaskResult) : [key, task.category, 'pending', '', '', '', '', '']);
  }
  return {
    title: 'Tasks',
    header: ['task', 'category', 'verdict', 'regression', 'modification', 'cost', 'model calls', 'why'],
    rows,
  };
}

function taskRow(key: string, category: string, r: V2TaskResult): string[] {
  const verdict = r.failure ? `failed (${r.failure.class})` : r.hard === 1 ? 'pass' : 'fail';
  return [
    key,
    category,
    verdict,
    r.v2 ? r.v2.regressionAccuracy.toFixed(4) : '',
    r.v2 ? r.v2.modificationAccuracy.toFixed(4) : '',
    `$${r.costUsd.toFixed(4)}`,
    String(r.llmCalls),
    (r.reasons[0] ?? '').slice(0, 300),
  ];
}

function pairTables(pair: PairComparison): ReportTable[] {
  const groups = [{ group: 'overall', tasks: pair.tasks, hard: pair.hard, softDiff: pair.hardDiff }, ...pair.byGroup];
  return [
    {
      title: `Compared with ${pair.a} (B = ${pair.b}, paired over ${pair.tasks} tasks)`,
      header: ['', 'tasks', 'both pass', 'A only', 'B only', 'neither', "McNemar's p", 'accuracy B − A [95%]'],
      rows: groups.map((g) => [
        g.group,
        String(g.tasks),
        String(g.hard.bothPass),
        String(g.hard.aOnly),
        String(g.hard.bOnly),
        String(g.hard.neither),
        g.hard.mcnemarP.toFixed(4),
        ci(g.softDiff),
      ]),
    },
    {
      title: 'Tasks that one run passes and the other does not',
      header: ['passes only in', 'tasks'],
      rows: [
        [pair.a, pair.hard.taskIds.aOnly.join(', ') || '–'],
        [pair.b, pair.hard.taskIds.bOnly.join(', ') || '–'],
      ],
    },
  ];
}

export async function writeV2Report(opts: {
  runDir: string;
  compareDir?: string;
  outDir?: string;
}): Promise<WrittenReport> {
  const { run, summary } = await summarizeV2Run(opts.runDir);
  const outcomes = await loadRunOutcomes(opts.runDir);
  const metrics = runMetrics(outcomes);
  const accuracy = new Map<string, Interval>([
    ['overall', metrics.hard],
    ...metrics.byGroup.map((g) => [g.group, g.hard] as [string, Interval]),
  ]);
  const tables = [figuresTable(summary, accuracy), ...(await chartJudgingTables(run)), await taskTable(run)];
  if (opts.compareDir) {
    const comparison = compareRunOutcomes([await loadRunOutcomes(opts.compareDir), outcomes]);
    tables.push(...pairTables(comparison.pairs[0]));
  }
  const title = `SpreadsheetBench 2 run ${run.manifest.runId} (${run.manifest.agent}, ${run.manifest.llm.model})`;
  const outDir = opts.outDir ?? opts.runDir;
  await mkdir(outDir, { recursive: true });
  const markdown = path.join(outDir, 'report.md');
  const html = path.join(outDir, 'report.html');
  await writeFile(markdown, tablesMarkdown(title, tables));
  await writeFile(html, tablesHtml(title, tables));
  return { markdown, html, finishedTasks: summary.scored, pendingTasks: summary.tasks - summary.scored };
}
