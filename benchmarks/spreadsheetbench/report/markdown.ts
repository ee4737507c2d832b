import type { RunComparison } from './compare';
import type { LoadedTask } from './load';
import type { ReportModel } from './model';
import type { RunSummary } from './summary';
import { insightLines } from './insight';
import { count, mdCell, pct, transcriptHref, usd } from '../../report/format';
import { tokenPartsText } from '../../report/tokenParts';
import {
  changeCounts,
  changedTasks,
  deltaHeader,
  deltaRows,
  DIFF_COLUMNS,
  diffRow,
  TASK_COLUMNS,
  taskCells,
} from './rows';

export function renderMarkdown(model: ReportModel): string {
  const { run, summary } = model;
  const m = run.manifest;
  const lines = [
    `# SpreadsheetBench run ${m.runId}`,
    '',
    `- Agent: ${m.agent}; model: ${m.llm.model}; scoring: ${m.scoringMode}; created: ${m.createdAt}`,
    `- Tasks: ${summary.finishedTasks} finished of ${summary.totalTasks} (${summary.pendingTasks} pending)`,
    `- LLM calls: ${count(summary.llmCalls)}; tokens: ${count(summary.inputTokens)} in / ${count(summary.outputTokens)} out${tokenPartsText(summary, count)}; cost: ${usd(summary.costUsd)}`,
    ...(model.inspectLog ? [`- Inspect eval log: [${model.inspectLog}](${model.inspectLog})`] : []),
    '',
    '## Scores',
    '',
    table(
      ['Group', 'Tasks', 'Soft', 'Hard'],
      [summary.overall, ...summary.byType].map((g) => [g.label, String(g.tasks), pct(g.soft), pct(g.hard)]),
    ),
    '',
    ...(model.insight ? [...insightLines(model.insight).map((l) => `- ${l}`), ''] : []),
    '## Cost and tokens by stage',
    '',
    stagesTable(summary),
    '',
    '## Failure classes',
    '',
    summary.failures.length === 0
      ? 'No task failed for a non-scoring reason.'
      : table(
          ['Class', 'Tasks'],
          summary.failures.map((f) => [f.failureClass, String(f.count)]),
        ),
    '',
    '## Tasks',
    '',
    tasksTable(run.tasks, model.transcriptPages),
    ...(model.comparison ? ['', comparisonMarkdown(model.comparison)] : []),
  ];
  return lines.join('\n') + '\n';
}

function stagesTable(summary: RunSummary): string {
  if (summary.byStage.length === 0) return 'No stage records.';
  return table(
    ['Stage', 'LLM calls', 'Input tokens', 'Output tokens', 'Cost', 'Wall (s)'],
    summary.byStage.map((s) => [
      s.stage,
      count(s.llmCalls),
      count(s.inputTokens),
      count(s.outputTokens),
      usd(s.costUsd),
      (s.wallMs / 1000).toFixed(1),
    ]),
  );
}

function tasksTable(tasks: LoadedTask[], transcriptPages: Set<string>): string {
  const rows = tasks.map((t) => {
    const id = transcriptPages.has(t.key) ? `[${mdCell(t.key)}](${transcriptHref(t.key)})` : mdCell(t.key);
    return [id, ...taskCells(t).map(mdCell)];
  });
  return table(TASK_COLUMNS, rows);
}

function comparisonMarkdown(c: RunComparison): string {
  const changed = changedTasks(c);
  return [
    `## Comparison with ${c.baselineRunId}`,
    '',
    table(deltaHeader(c).map(mdCell), deltaRows(c)),
    '',
    changeCounts(c)
      .map((x) => `${x.change}: ${x.count}`)
      .join(', '),
    '',
    changed.length === 0
      ? 'No task changed.'
      : table(
          DIFF_COLUMNS,
          changed.map((t) => diffRow(t).map(mdCell)),
        ),
  ].join('\n');
}

function table(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}
