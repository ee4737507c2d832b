import { scoreTask as scoreOneTask } from '../../benchmarks/spreadsheetbench/scoring';
import { sheetRun } from '../../benchmarks/spreadsheetbench/run';

export interface ScoreTaskInput {
  runDir: string;
  taskId: string;
}

export interface ScoreTaskResult {
  testCaseResults: number[];
  soft: number;
  hard: number;
  reasons: (string | null)[];
}

export const scoreActivities = {
  /** Scores the task's outputs with the official rules (or strict mode, per run). */
  async scoreTask(input: ScoreTaskInput): Promise<ScoreTaskResult> {
    const ctx = await sheetRun(input.runDir);
    const task = ctx.task(input.taskId);
    const { official, verdicts } = await scoreOneTask({
      task,
      datasetDir: ctx.manifest.datasetDir,
      outputPathFor: (n: number) => ctx.official.outputPath(input.taskId, n),
      mode: ctx.manifest.scoringMode,
    });
    return {
      testCaseResults: official.test_case_results,
      soft: official.soft_restriction,
      hard: official.hard_restriction,
      reasons: verdicts.map((v) => (v.pass ? null : (v.reason ?? 'failed'))),
    };
  },
};
