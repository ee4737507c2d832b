import type { RunComparison } from './compare';
import type { LoadedTask } from './load';
import type { ReportModel } from './model';
import type { RunSummary } from './summary';
import { insightLines } from './insight';
import { barChart } from './svg';
import { htmlPage, htmlTable, td } from '../../report/htmlPage';
import { count, escapeHtml, pct, transcriptHref, usd } from '../../report/format';
import { tokenPartsText } from '../../report/tokenParts';
import {
  changeCounts,
  changedTasks,
  deltaHeader,
  deltaRows,
  DIFF_COLUMNS,
  diffRow,
  NUMERIC_TASK_COLUMNS,
  TASK_COLUMNS,
  taskCells,
} from './rows';

const SOFT = '#4c6ef5';
const HARD = '#f59f00';
const INPUT = '#12b886';
const OUTPUT = '#ae3ec9';
const COST = '#e8590c';
const FAILURE = '#e03131';
const BASELINE = '#adb5bd';

export function renderHtml(model: ReportModel): string {
  const { run, summary } = model;
  const m = run.manifest;
  const body = [
    `<h1>SpreadsheetBench run ${escapeHtml(m.runId)}</h1>`,
    `<p class="meta">Agent <b>${escapeHtml(m.agent)}</b>, model <b>${escapeHtml(m.llm.model)}</b>, scoring ${escapeHtml(m.scoringMode)}, created ${escapeHtml(m.createdAt)}.<br>`,
    `${summary.finishedTasks} of ${summary.totalTasks} tasks finished (${summary.pendingTasks} pending); ${count(summary.llmCalls)} LLM calls; `,
    `${count(summary.inputTokens)} input / ${count(summary.outputTokens)} output tokens${escapeHtml(tokenPartsText(summary, count))}; cost ${usd(summary.costUsd)}.`,
    model.inspectLog
      ? `<br>Inspect eval log: <a href="${escapeHtml(model.inspectLog)}">${escapeHtml(model.inspectLog)}</a>`
      : '',
    '</p>',
    model.insight
      ? `<ul class="insight">${insightLines(model.insight)
          .map((l) => `<li>${escapeHtml(l)}</li>`)
          .join('')}</ul>`
      : '',
    '<h2>Charts</h2>',
    `<div class="charts" id="charts">${charts(summary).join('\n')}</div>`,
    '<h2>Tasks</h2>',
    tasksTable(run.tasks, model.transcriptPages),
    model.comparison ? comparisonHtml(model.comparison) : '',
  ];
  return htmlPage(`sheetbench report ${m.runId}`, body.join('\n'));
}

function charts(summary: RunSummary): string[] {
  const groups = [summary.overall, ...summary.byType];
  const out = [
    barChart({
      title: 'Soft / hard score by instruction type',
      categories: groups.map((g) => `${g.label} (${g.tasks})`),
      series: [
        { name: 'soft', color: SOFT, values: groups.map((g) => g.soft) },
        { name: 'hard', color: HARD, values: groups.map((g) => g.hard) },
      ],
      format: pct,
      max: 1,
    }),
  ];
  if (summary.byStage.length > 0) {
    const stages = summary.byStage.map((s) => s.stage);
    out.push(
      barChart({
        title: 'Tokens by stage',
        categories: stages,
        series: [
          { name: 'input', color: INPUT, values: summary.byStage.map((s) => s.inputTokens) },
          { name: 'output', color: OUTPUT, values: summary.byStage.map((s) => s.outputTokens) },
        ],
        format: count,
      }),
      barChart({
        title: 'Cost by stage (USD)',
        categories: stages,
        series: [{ name: 'cost', color: COST, values: summary.byStage.map((s) => s.costUsd) }],
        format: usd,
      }),
    );
  }
  if (summary.failures.length > 0) {
    out.push(
      barChart({
        title: 'Failure classes (tasks)',
        categories: summary.failures.map((f) => f.failureClass),
        series: [{ name: 'tasks', color: FAILURE, values: summary.failures.map((f) => f.count) }],
        format: (v) => String(v),
      }),
    );
  }
  return out;
}

function tasksTable(tasks: LoadedTask[], transcriptPages: Set<string>): string {
  const rows = tasks.map((t) => {
    const id = transcriptPages.has(t.key)
      ? `<td class="id"><a class="transcript" href="${escapeHtml(transcriptHref(t.key))}">${escapeHtml(t.key)}</a></td>`
      : `<td class="id">${escapeHtml(t.key)}</td>`;
    return [id, ...taskCells(t).map((cell, i) => td(cell, NUMERIC_TASK_COLUMNS.has(i + 1) ? 'num' : undefined))];
  });
  const classes = tasks.map((t) => (!t.result ? 'pending' : t.result.hard === 1 ? 'pass' : 'fail'));
  return `<div id="tasks">${htmlTable(TASK_COLUMNS, rows, classes)}</div>`;
}

function comparisonHtml(c: RunComparison): string {
  const changed = changedTasks(c);
  const deltas = htmlTable(
    deltaHeader(c),
    deltaRows(c).map((r) => r.map((cell, i) => td(cell, i > 0 ? 'num' : undefined))),
  );
  const chart = barChart({
    title: 'Baseline vs this run',
    categories: ['soft', 'hard'],
    series: [
      { name: c.baselineRunId, color: BASELINE, values: [c.baseline.overall.soft, c.baseline.overall.hard] },
      { name: c.currentRunId, color: SOFT, values: [c.current.overall.soft, c.current.overall.hard] },
    ],
    format: pct,
    max: 1,
  });
  const countsLine = changeCounts(c)
    .map((x) => `<span class="${x.change}">${x.change}: ${x.count}</span>`)
    .join(', ');
  const diff =
    changed.length === 0
      ? '<p>No task changed.</p>'
      : htmlTable(
          DIFF_COLUMNS,
          changed.map((t) => diffRow(t).map((cell, i) => (i === 1 ? `<td class="${cell}">${cell}</td>` : td(cell)))),
        );
  const parts = [
    `<h2>Comparison with ${escapeHtml(c.baselineRunId)}</h2>`,
    deltas,
    `<div class="charts">${chart}</div>`,
    `<p id="changes">${countsLine}</p>`,
    diff,
  ];
  return `<section id="comparison">${parts.join('\n')}</section>`;
}
