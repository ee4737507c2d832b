import path from 'node:path';
import { runContextReader, type RunContext } from '../../../lib/runStore/runContext';
import { safeName } from '../../../lib/runStore/runLayout';
import { v2TaskSchema, type V2Task } from '../dataset';

/**
 * The files of a SpreadsheetBench 2 run: outputs named as the release names them (`<id>_output.xlsx`, one folder per
 * `<setting>_<model>`), the official result file per category (evaluation.py writes one per `--dataset`), and each
 * task's cell diffs and recalculated dataset files beside its other records.
 */
export class V2RunFiles {
  constructor(
    readonly root: string,
    readonly setting: string,
    readonly model: string,
  ) {}

  get outputsName(): string {
    return `${this.setting}_${safeName(this.model)}`;
  }
  get outputsDir(): string {
    return path.join(this.root, 'outputs', this.outputsName);
  }
  outputPath(taskKey: string): string {
    return path.join(this.outputsDir, `${taskKey}_output.xlsx`);
  }
  /**
   * `<id>_output.png` beside the output workbook: an image the agent made of its charts, which the release's judge
   * prefers over exporting the workbook's charts.
   */
  outputImagePath(taskKey: string): string {
    return path.join(this.outputsDir, `${taskKey}_output.png`);
  }
  /** `eval_<setting>_<model>/<category>.json`: the official result file of one category. */
  officialResultPath(category: string): string {
    return path.join(this.root, `eval_${this.outputsName}`, `${safeName(category)}.json`);
  }
  cellDiffsPath(taskKey: string): string {
    return path.join(this.root, 'tasks', taskKey, 'cell-diffs.json');
  }
  /**
   * `tasks/<key>/recalculated/<input|answer>.xlsx`: the run's copy of the task's recalculated input or answer (taken
   * from the cache of recalculated copies), where the agent's work folder and the scorer read it.
   */
  recalculatedPath(taskKey: string, which: 'input' | 'answer'): string {
    return path.join(this.root, 'tasks', taskKey, 'recalculated', `${which}.xlsx`);
  }
}

/** A SpreadsheetBench 2 run as its scorer and report see it: its tasks and its files. */
export interface V2Run extends RunContext<V2Task> {
  files: V2RunFiles;
}

const readRun = runContextReader(v2TaskSchema);

export async function v2Run(runDir: string): Promise<V2Run> {
  const ctx = await readRun(runDir);
  return { ...ctx, files: new V2RunFiles(ctx.layout.root, ctx.manifest.setting, ctx.manifest.llm.model) };
}
