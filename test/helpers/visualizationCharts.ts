/**
 * Scripted chart programs for checked_vote on generated SpreadsheetBench 2 Visualization tasks, and a second dataset
 * whose one task (vis_two) asks for two titled charts: its checklist names each chart by title, so its output is judged
 * chart by chart (one judge call per named chart, one for the rest). Used by visualizationRun.test.ts and the replay
 * fixtures (`recordHistories.ts sb2charts`).
 */
import type { ScriptedRequest } from '../../lib/scriptedLlm';
import { runPython } from '../scoring/oracle';

/**
 * checked_vote's Python candidates on vis_bar: each only adds the bar chart (an openpyxl chart program), leaving every
 * answer cell as the input has it.
 */
/** A solve(wb) that adds vis_bar's bar chart 'Values' over Data!B1:B5 at D2 (lines of a ```python block). */
export const VIS_BAR_CHART_SOLVE = [
  'def solve(wb):',
  '    from openpyxl.chart import BarChart, Reference',
  "    ws = wb['Data']",
  '    c = BarChart()',
  "    c.title = 'Values'",
  '    c.add_data(Reference(ws, min_col=2, min_row=1, max_row=5))',
  "    ws.add_chart(c, 'D2')",
];

export const chartOnlyCandidate = {
  name: 'vis_bar-checked-vote-chart-only',
  match: { callKey: /\/vis_bar\/cand-\d\/\d$/ },
  reply: ['```python', ...VIS_BAR_CHART_SOLVE, '```'].join('\n'),
};

/** checked_vote's candidates on vis_two: two titled charts, Sales (bar) and Trend (line). */
export const twoChartsCandidate = {
  name: 'vis_two-checked-vote',
  match: { callKey: /\/vis_two\/cand-\d\/\d$/ },
  reply: [
    '```python',
    'def solve(wb):',
    '    from openpyxl.chart import BarChart, LineChart, Reference',
    "    ws = wb['Data']",
    "    b = BarChart(); b.title = 'Sales'",
    '    b.add_data(Reference(ws, min_col=2, min_row=1, max_row=5)); ws.add_chart(b, "D2")',
    "    l = LineChart(); l.title = 'Trend'",
    '    l.add_data(Reference(ws, min_col=2, min_row=1, max_row=5)); ws.add_chart(l, "D20")',
    '```',
  ].join('\n'),
};

/** vis_two: its checklist names each chart by title, and one item is about the whole output. */
const TWO_CHARTS = `
import json, os, sys, openpyxl
d = os.path.join(sys.argv[1], "spreadsheet", "vis_two"); os.makedirs(d)
wb = openpyxl.Workbook(); ws = wb.active; ws.title = "Data"
for r in range(1, 6): ws.append([f"r{r}", r * 10])
wb.save(os.path.join(d, "input.xlsx")); wb.save(os.path.join(d, "answer.xlsx"))
json.dump([{"id": "vis_two", "instruction": "do vis_two: chart the values twice", "spreadsheet_path": "spreadsheet/vis_two/input.xlsx",
            "golden_response_path": "spreadsheet/vis_two/answer.xlsx", "answer_position": "Data!A1:B5",
            "criteria": [{"id": 1, "instruction": "a bar chart", "chart": "Sales"}, {"id": 2, "instruction": "a line chart", "chart": "trend"},
                         {"id": 3, "instruction": "two charts in all"}]}], open(os.path.join(sys.argv[1], "dataset.json"), "w"))
`;

/** Writes the category folder `dir` (named Visualization by the caller) holding vis_two only. */
export function generateTwoChartsTask(dir: string): void {
  runPython(['-c', TWO_CHARTS, dir], '');
}

/**
 * Writes the category folder `dir` holding vis_png only: vis_two's data and checklist (two charts named by title), for
 * a scaffold agent that also leaves `vis_png_output.png` beside its workbook (visualizationTasks.ts).
 */
export function generateOutputImageTask(dir: string): void {
  runPython(['-c', TWO_CHARTS.replaceAll('vis_two', 'vis_png'), dir], '');
}

/** A judge verdict that passes every item the request asks. */
export function passEveryAsked(request: ScriptedRequest): string {
  const text = String(request.messages.find((m) => m.role === 'user')?.content ?? '');
  return JSON.stringify({ pass_ids: [...text.matchAll(/^(\d+)\. /gm)].map((m) => Number(m[1])), fail: [] });
}
