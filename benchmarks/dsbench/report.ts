import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { tablesHtml, tablesMarkdown, type ReportTable } from '../report/tables';
import { dsbenchMetrics, type DsbenchMetrics } from './metrics';
import { loadDsbenchRun, type LoadedDsbenchRun } from './loadRun';
import { writeDsbenchInspectLog } from './inspectLog';
import type { DsbenchQuestionResult } from './result';
import { unfinishedRejudgeLines } from '../report/unfinishedRejudge';

export interface WrittenDsbenchReport {
  markdown: string;
  html: string;
  inspectLog: string;
  finishedTasks: number;
  pendingTasks: number;
}

/**
 * report.md, report.html (accuracy by competition and by answer type, the judge check, cost, a rejudge stopped before
 * its end) and the Inspect log.
 */
export async function writeDsbenchReport(opts: { runDir: string; outDir?: string }): Promise<WrittenDsbenchReport> {
  const run = await loadDsbenchRun(opts.runDir);
  const outDir = opts.outDir ?? opts.runDir;
  await mkdir(outDir, { recursive: true });
  const results = run.questions.flatMap((q) => (q.result ? [q.result] : []));
  const metrics = dsbenchMetrics(
    run.questions.map((q) => q.question),
    results,
  );
  const unfinished = (await unfinishedRejudgeLines(opts.runDir, 'question(s)')).map((line) => line.trim());
  const tables = reportTables(run, metrics, results, unfinished);
  const markdown = path.join(outDir, 'report.md');
  const html = path.join(outDir, 'report.html');
  await writeFile(markdown, tablesMarkdown(reportTitle(run), tables));
  await writeFile(html, tablesHtml(reportTitle(run), tables));
  const inspectLog = await writeDsbenchInspectLog(run, path.join(outDir, 'logs'));
  return {
    markdown,
    html,
    inspectLog,
    finishedTasks: results.length,
    pendingTasks: run.questions.length - results.length,
  };
}

const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(2)}%`);

function reportTables(
  run: LoadedDsbenchRun,
  m: DsbenchMetrics,
  results: DsbenchQuestionResult[],
  unfinishedRejudge: string[],
): ReportTable[] {
  const failures = results.filter((r) => r.failure);
  return [
    {
      title: 'DSBench results',
      header: ['metric', 'value'],
      rows: [
        ['questions', `${results.length} finished of ${m.questions}`],
        ['accuracy (question level)', `${pct(m.accuracy)} (${m.correct}/${m.questions})`],
        ['accuracy (competition level)', pct(m.competitionAccuracy)],
        ['unparseable judgments', String(m.unparseableJudgments)],
        [
          'judge vs exact letter (multiple choice)',
          `${pct(m.judgeVsExactLetter.agreement)} of ${m.judgeVsExactLetter.questions}`,
        ],
        ['cost', `$${m.costUsd.toFixed(4)}`],
        ['time (sum over questions)', `${m.timeSeconds.toFixed(1)} s`],
        ['judge', String(run.manifest.benchmarkSettings?.judgeModel ?? '')],
        ...unfinishedRejudge.map((line) => ['rejudge', line]),
      ],
    },
    {
      title: 'Accuracy by competition',
      header: ['competition', 'name', 'questions', 'correct', 'accuracy'],
      rows: m.byCompetition.map((c) => [
        c.competitionId,
        c.name,
        String(c.questions),
        String(c.correct),
        pct(c.accuracy),
      ]),
    },
    {
      title: 'Accuracy by answer type',
      header: ['answer type', 'questions', 'correct', 'accuracy'],
      rows: Object.entries(m.byAnswerType).map(([t, v]) => [
        t,
        String(v.questions),
        String(v.correct),
        pct(v.accuracy),
      ]),
    },
    ...(failures.length
      ? [
          {
            title: 'Failed questions',
            header: ['question', 'class', 'message'],
            rows: failures.map((r) => [r.taskId, r.failure!.class, r.failure!.message]),
          },
        ]
      : []),
  ];
}

function reportTitle(run: LoadedDsbenchRun): string {
  return `${run.manifest.runId}: DSBench ${run.manifest.agent} × ${run.manifest.llm.model}`;
}
