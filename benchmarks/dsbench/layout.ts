import path from 'node:path';

/** Where DSBench keeps its artifacts in the run folder (beside the shared layout: results/, tasks/, llm-cache/). */
export const dsbenchPaths = {
  /** A competition's workbook text, prepared once and read by all its questions. */
  workbookText: (runDir: string, competitionId: string) =>
    path.join(runDir, 'dsbench', 'workbooks', `${competitionId}.txt`),
  /** The prompt as sent (after truncation), for audit and the golden test. */
  prompt: (taskDir: string) => path.join(taskDir, 'prompt.txt'),
  answer: (taskDir: string) => path.join(taskDir, 'answer.json'),
  judgment: (taskDir: string) => path.join(taskDir, 'judgment.json'),
  /** `results.jsonl`: one line per question, as the original's save_process files (plus the verdict). */
  resultsJsonl: (runDir: string) => path.join(runDir, 'dsbench-results.jsonl'),
};
