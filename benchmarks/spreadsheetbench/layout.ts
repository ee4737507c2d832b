import path from 'node:path';
import { safeName } from '../../lib/runStore/runLayout';
import { parseAttemptKey } from '../../lib/runStore/taskRecord';

/**
 * The files of a SpreadsheetBench run that the official inference and evaluation tools name: `<setting>_<model>`.
 * In a run with repeats, epoch 1 keeps these places and epoch e ≥ 2 has the same official layout under `epochs/<e>/`
 * (outputs named `{N}_{id}_output.xlsx`, its own eval JSON and conv JSONL), so each epoch can be scored on its own.
 */
export class OfficialFiles {
  constructor(
    readonly root: string,
    readonly setting: string,
    readonly model: string,
    readonly epochs = 1,
  ) {}

  /** The task key and epoch of a task or attempt key (only runs with repeats have attempt keys). */
  attempt(key: string): { taskKey: string; epoch: number } {
    return this.epochs > 1 ? parseAttemptKey(key) : { taskKey: key, epoch: 1 };
  }

  /** Where the official files of one epoch live. */
  epochRoot(epoch: number): string {
    return epoch <= 1 ? this.root : path.join(this.root, 'epochs', String(epoch));
  }

  /** `<setting>_<model>` as the official scripts name it (slashes made safe). */
  get outputsName(): string {
    return `${this.setting}_${safeName(this.model)}`;
  }
  get outputsDir(): string {
    return this.outputsDirOf(1);
  }
  outputsDirOf(epoch: number): string {
    return path.join(this.epochRoot(epoch), 'outputs', this.outputsName);
  }
  /** The output of test case N of a task attempt (`{N}_{id}_output.xlsx` in its epoch's outputs folder). */
  outputPath(key: string, testCase: number): string {
    const { taskKey, epoch } = this.attempt(key);
    return path.join(this.outputsDirOf(epoch), `${testCase}_${taskKey}_output.xlsx`);
  }
  get convLogPath(): string {
    return this.convLogPathOf(1);
  }
  convLogPathOf(epoch: number): string {
    return path.join(this.epochRoot(epoch), `conv_${this.outputsName}.jsonl`);
  }
  get evalPath(): string {
    return this.evalPathOf(1);
  }
  evalPathOf(epoch: number): string {
    return path.join(this.epochRoot(epoch), `eval_${this.outputsName}.json`);
  }
  /** One task's line of the official conv JSONL, written when the task is recorded (`tasks/<id>/official-conv.json`). */
  officialConvPath(taskId: string): string {
    return path.join(this.root, 'tasks', taskId, 'official-conv.json');
  }
}

/**
 * `tasks/<key>/cell-diffs.json`: a task attempt's cell diffs and floor (scoring/cellDiff.ts), in its task folder beside
 * its transcript. Not in `results/`, whose every entry is one task's result (scripts list it).
 */
export function cellDiffsPath(runDir: string, taskKey: string): string {
  return path.join(runDir, 'tasks', taskKey, 'cell-diffs.json');
}
