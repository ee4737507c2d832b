import type { RunComparison } from './compare';
import type { LoadedRun } from './load';
import type { RunSummary } from './summary';
import type { RunInsight } from './insight';

/** Everything the Markdown and HTML renderers need. */
export interface ReportModel {
  run: LoadedRun;
  summary: RunSummary;
  comparison?: RunComparison;
  /** Tasks whose transcript page exists next to the report (linked from the task table). */
  transcriptPages: Set<string>;
  /** Inspect eval log written for the run, relative to the report folder. */
  inspectLog?: string;
  /** Intervals, repeats, the floor, unreachable test cases, the scores without known-bad tasks. */
  insight?: RunInsight;
}
