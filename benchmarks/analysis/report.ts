import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readJsonIfPresent } from '../../lib/json';
import { analysisRequestResultSchema } from './resultSchema';
import { analysisRun } from './run';
import { tablesHtml, tablesMarkdown, type ReportTable } from '../report/tables';
import { summarizeAnalysisRun, type AnalysisSummary } from './finalize';
import type { AnalysisRequestResult } from './result';
import { groundedCell } from './summaryLines';

/** report.md and report.html: success and grounded numbers per level and pattern, and each request's outcome (no Inspect log yet). */
export async function writeAnalysisReport(opts: {
  runDir: string;
  outDir?: string;
}): Promise<{ markdown: string; html: string; finishedTasks: number; pendingTasks: number }> {
  const ctx = await analysisRun(opts.runDir);
  // Recomputed from the result files: a report of an unfinished run shows what is done so far.
  const summary = await summarizeAnalysisRun(ctx);
  const results = await Promise.all(
    ctx.tasks.map((t): Promise<AnalysisRequestResult | undefined> =>
      readJsonIfPresent(ctx.layout.taskResultPath(t.id), analysisRequestResultSchema),
    ),
  );
  const outDir = opts.outDir ?? opts.runDir;
  await mkdir(outDir, { recursive: true });
  const title = `${ctx.manifest.runId}: analysis suite, pattern ${summary.pattern} × ${summary.model}`;
  const tables = reportTables(
    summary,
    results.filter((r): r is AnalysisRequestResult => r !== undefined),
  );
  const markdown = path.join(outDir, 'report.md');
  const html = path.join(outDir, 'report.html');
  await writeFile(markdown, tablesMarkdown(title, tables));
  await writeFile(html, tablesHtml(title, tables));
  return { markdown, html, finishedTasks: summary.finished, pendingTasks: summary.requests - summary.finished };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function reportTables(s: AnalysisSummary, results: AnalysisRequestResult[]): ReportTable[] {
  const header = [
    'group',
    'passed',
    'scored',
    'success',
    'grounded numbers',
    'steps/req',
    'tool calls/req',
    'tokens/req',
    'cost',
  ];
  const row = (name: string, g: AnalysisSummary['total']) => [
    name,
    String(g.passed),
    String(g.scored),
    pct(g.successRate),
    groundedCell(g),
    g.steps.toFixed(1),
    g.toolCalls.toFixed(1),
    g.tokens.toFixed(0),
    `$${g.costUsd.toFixed(4)}`,
  ];
  return [
    {
      title: 'Success',
      header,
      rows: [
        row('all', s.total),
        ...Object.entries(s.byLevel).map(([k, g]) => row(k, g)),
        ...Object.entries(s.byPattern).map(([k, g]) => row(k, g)),
      ],
    },
    {
      title: 'Requests',
      header: ['request', 'level', 'pattern', 'status', 'pass', 'reason', 'grounded numbers', 'steps', 'tool calls'],
      rows: results.map((r) => [
        r.taskId,
        String(r.level),
        r.chosenPattern ?? r.pattern,
        r.status,
        r.pass ? 'yes' : 'no',
        r.reason,
        r.grounding ? `${r.grounding.grounded}/${r.grounding.total}` : '-',
        String(r.steps),
        String(r.toolCalls),
      ]),
    },
  ];
}
