/**
 * checked_vote (our SpreadsheetBench agent, benchmarks/spreadsheetbench/agents/checkedVote/) on a SpreadsheetBench 2
 * task, unchanged: the v2 task is seen as a one-test-case SpreadsheetBench task in a run folder of its own
 * (`as-spreadsheetbench/<key>/` in the v2 run: run.json, tasks.json, a dataset holding only the task's input as
 * `spreadsheet/<key>/1_<key>_input.xlsx`), where checked_vote's activities find everything they read. What maps:
 * - `instruction` as it is; every v2 task as 'Sheet-Level Manipulation' (its answer range holds cells the agent must
 *   change and cells it must leave as they are, so one formula filled across it is no answer): Python candidates;
 * - `answer_position` with each sheet named as the input names it (v2 finds sheets ignoring case and outer spaces, as
 *   evaluation.py does; SpreadsheetBench reads them exactly);
 * - the input: the recalculated copy when the run made one (the answer never enters the adapter's folder);
 * - the submission (`OfficialFiles.outputPath(key, 1)`) becomes the v2 output `<id>_output.xlsx`;
 * - on a chart task (Visualization) a chart added or changed counts as a change for the `unchanged` check
 *   (benchmarks/workbook/chartChange.ts; run.json `benchmarkSettings`), since v2 (`sb2-adapter-v2`).
 */
import path from 'node:path';
import type { RunManifest } from '../../../lib/runStore/manifest';
import type { SheetTask } from '../../spreadsheetbench/dataset';
import { OfficialFiles } from '../../spreadsheetbench/layout';
import { OUTPUT_SETTINGS } from '../../spreadsheetbench/agentSettings';
import { CHECKED_VOTE_PROMPT_VERSION } from '../../spreadsheetbench/agents/checkedVote/settings';
import { findSheetName } from '../scoring/compareWorkbooks';
import { splitAnswerPosition, splitPiece } from '../scoring/cellNames';
import { VISUALIZATION_CATEGORY, type V2Task } from '../dataset';
import { CHARTS_COUNT_AS_CHANGE } from '../../workbook/chartChange';

/** The agent name, on the CLI and in the adapter's run.json. */
export const CHECKED_VOTE = 'checked_vote';

/** checked_vote's prompt version, and the adapter's (bump when the mapping above changes). */
export const CHECKED_VOTE_V2_PROMPT_VERSION = `${CHECKED_VOTE_PROMPT_VERSION}+sb2-adapter-v2`;

/** The adapter's dataset folder, recorded relative to its run folder in run.json. */
const DATASET = 'dataset';

export class AdapterFiles {
  constructor(
    readonly root: string,
    readonly taskKey: string,
  ) {}
  get datasetDir(): string {
    return path.join(this.root, DATASET);
  }
  /** The task's one input, where SpreadsheetBench's test-case files are looked for. */
  get inputPath(): string {
    return path.join(this.datasetDir, 'spreadsheet', this.taskKey, `1_${this.taskKey}_input.xlsx`);
  }
  /** What checked_vote submitted (the chosen candidate's output, or the unchanged input). */
  submissionPath(model: string): string {
    return new OfficialFiles(this.root, OUTPUT_SETTINGS.checked_vote, model).outputPath(this.taskKey, 1);
  }
}

/** The v2 task as a SpreadsheetBench task; `sheetnames`: its input's sheets (unknown: the names are kept as written). */
export function adaptedTask(task: V2Task, taskKey: string, sheetnames: readonly string[]): SheetTask {
  return {
    id: task.id,
    instruction: task.instruction,
    spreadsheet_path: `spreadsheet/${taskKey}`,
    instruction_type: 'Sheet-Level Manipulation',
    answer_position: adaptedPosition(task.answer_position, sheetnames),
  };
}

/**
 * Each piece's sheet resolved against the input's sheets as v2 resolves it, quoted. SpreadsheetBench splits positions
 * at every comma and trims sheet names, so a sheet named with a comma or outer spaces cannot be written: on the first
 * sheet its pieces are left unqualified (= the first sheet there); elsewhere they stay as they are (checked_vote's
 * checks then miss that sheet).
 */
export function adaptedPosition(answerPosition: string, sheetnames: readonly string[]): string {
  const first = sheetnames[0] ?? '';
  return splitAnswerPosition(answerPosition)
    .map((piece) => {
      const { sheet, range } = splitPiece(piece, () => first);
      const name = findSheetName(sheetnames, sheet) ?? sheet;
      const writable = !name.includes(',') && name.trim() === name;
      return !writable && name === first ? range : `'${name}'!${range}`;
    })
    .join(',');
}

/** The adapter's benchmarkSettings for a task: on a chart task a chart added or changed counts as a change. */
function chartSettingsOf(task: Pick<V2Task, 'category'>): Record<string, unknown> {
  return task.category === VISUALIZATION_CATEGORY ? { [CHARTS_COUNT_AS_CHANGE]: true } : {};
}

/**
 * The adapter's run.json: the v2 run's, as a one-task SpreadsheetBench run of checked_vote on its own dataset (with
 * the task's chart setting).
 */
export function adaptedManifest(v2: RunManifest, task: Pick<V2Task, 'category'>): RunManifest {
  const { epochs: _epochs, ...rest } = v2;
  const charts = chartSettingsOf(task);
  return {
    ...rest,
    ...(Object.keys(charts).length ? { benchmarkSettings: { ...v2.benchmarkSettings, ...charts } } : {}),
    benchmark: 'spreadsheetbench',
    edition: 'verified_400',
    agent: CHECKED_VOTE,
    setting: OUTPUT_SETTINGS.checked_vote,
    datasetDir: DATASET,
    taskCount: 1,
  };
}
