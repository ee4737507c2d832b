/**
 * Whether a program's output changed the workbook's charts, for runs where charts are answers (SpreadsheetBench 2's
 * chart tasks, run by checked_vote through its adapter, which marks its run folder: run.json
 * `benchmarkSettings.chartsCountAsChange`). There a chart added, removed or changed is a change of the output even when
 * every answer cell stays as the input had it: checked_vote's `unchanged` check would otherwise reject every candidate
 * that only draws the chart asked for, and such tasks would score 0 by construction. Charts are compared by what they
 * show (chartParts.ts).
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
