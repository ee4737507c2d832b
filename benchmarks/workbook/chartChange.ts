/**
 * Whether a program's output changed the workbook's charts, for runs where charts are answers (SpreadsheetBench 2's
 * chart tasks, run by checked_vote through its adapter, which marks its run folder: run.json
 * `benchmarkSettings.chartsCountAsChange`). There a chart added, removed or changed is a change of the output even when
 * every answer cell stays as the input had it: checked_vote's `unchanged` check would otherwise reject every candidate
 * that only draws the chart asked for, and such tasks would score 0 by construction. Charts are compared by what they
 * show (chartParts.ts: types, bar direction, title, the ranges read), not by their formatting, so a candidate that only
 * restyles a chart the input already had (colours, data labels, legend, axis titles) counts as unchanged. That is
 * meant: the release scopes its Visualization tasks to chart creation and pivot table construction
 * (SWE-agent/config/visualisation.yaml), so such a candidate created nothing and the `unchanged` problem, with its
 * repair feedback, is what it should get; and writers rewrite formatting, so counting it would let a candidate that
 * only loaded and saved the input pass the check (LibreOffice saving an unstyled openpyxl chart adds explicit colours:
 * chartChange.test.ts; an openpyxl load-and-save of a LibreOffice-written chart, recalculated by LibreOffice again,
 * differs from it in its formatting XML). A task asking only to restyle a chart the input has would be rejected so:
 * none is known (the release's data cannot be read here); a real run would show it as `unchanged` on such a task.
 */
import type { RunManifest } from '../../lib/runStore/manifest';
import { chartSummaries } from './chartParts';

export const CHARTS_COUNT_AS_CHANGE = 'chartsCountAsChange';

/** Whether the run counts a chart change as a change of the output. */
export function chartsCountAsChange(manifest: Pick<RunManifest, 'benchmarkSettings'>): boolean {
  return manifest.benchmarkSettings?.[CHARTS_COUNT_AS_CHANGE] === true;
}

/** Whether `output`'s charts differ from `input`'s; false when either cannot be read (other checks say why). */
export function chartsDiffer(input: string, output: string): boolean {
  try {
    return JSON.stringify(chartSummaries(input)) !== JSON.stringify(chartSummaries(output));
  } catch {
    return false;
  }
}
