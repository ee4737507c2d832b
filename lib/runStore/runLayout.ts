import path from 'node:path';

/**
 * Where everything of one run lives, for every benchmark. Workbooks, transcripts and outputs travel between activities
 * as paths inside this folder (never as Temporal payloads). A benchmark's own files (SpreadsheetBench's official
 * outputs, DSBench's results.jsonl) are named by that benchmark.
 */
export class RunLayout {
  constructor(readonly root: string) {}

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
