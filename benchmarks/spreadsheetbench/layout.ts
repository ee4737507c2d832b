import path from 'node:path';
import { safeName } from '../../lib/runStore/runLayout';

/** The files of a SpreadsheetBench run that the official inference and evaluation tools name: `<setting>_<model>`. */
export class OfficialFiles {
  constructor(readonly root: string, readonly setting: string, readonly model: string) {}

  /** `<setting>_<model>` as the official scripts name it (slashes made safe). */
  get outputsName(): string {
    return `${this.setting}_${safeName(this.model)}`;
  }
  get outputsDir(): string {
    return path.join(this.root, 'outputs', this.outputsName);
  }
  outputPath(taskId: string, testCase: number): string {
    return path.join(this.outputsDir, `${testCase}_${taskId}_output.xlsx`);
  }
  get convLogPath(): string {
    return path.join(this.root, `conv_${this.outputsName}.jsonl`);
  }
  get evalPath(): string {
    return path.join(this.root, `eval_${this.outputsName}.json`);
  }
  /** One task's line of the official conv JSONL, written when the task is recorded (`tasks/<id>/official-conv.json`). */
  officialConvPath(taskId: string): string {
    return path.join(this.root, 'tasks', taskId, 'official-conv.json');
  }
}
