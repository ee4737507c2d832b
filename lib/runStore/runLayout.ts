import path from 'node:path';

/**
 * Where everything of one run lives. Workbooks, transcripts and outputs travel between activities as paths
 * inside this folder (never as Temporal payloads). File names follow the official SpreadsheetBench tools.
 */
export class RunLayout {
  constructor(readonly root: string, readonly setting: string, readonly model: string) {}

  /** `<setting>_<model>` as the official inference and evaluation scripts name it (slashes made safe). */
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
  get summaryPath(): string {
    return path.join(this.root, 'summary.json');
  }
  get runManifestPath(): string {
    return path.join(this.root, 'run.json');
  }
  get taskListPath(): string {
    return path.join(this.root, 'tasks.json');
  }
  get llmCacheDir(): string {
    return path.join(this.root, 'llm-cache');
  }
  get resultsDir(): string {
    return path.join(this.root, 'results');
  }
  taskResultPath(taskId: string): string {
    return path.join(this.resultsDir, `${taskId}.json`);
  }
  taskDir(taskId: string): string {
    return path.join(this.root, 'tasks', taskId);
  }
  // Sandbox work dirs are not in the run folder: see activities/workDirs.ts.
  transcriptPath(taskId: string): string {
    return path.join(this.taskDir(taskId), 'transcript.json');
  }
}

export function safeName(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, '-');
}
