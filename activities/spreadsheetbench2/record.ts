import { writeJsonAtomic } from '../../lib/runStore/files';
import type { TaskFailureClass } from '../../contracts/taskResult';
import type { TokenUsage } from '../../lib/llm/types';
import { scaffoldPaths, type EpisodeRecord } from '../../benchmarks/spreadsheetbench2/scaffold/episodeFiles';
import { v2Run } from '../../benchmarks/spreadsheetbench2/run/files';
import { scoreV2Attempt } from '../../benchmarks/spreadsheetbench2/run/scoreAttempt';
import type { V2TaskResult } from '../../benchmarks/spreadsheetbench2/run/taskResult';
import { datasetFilesOf } from '../../benchmarks/spreadsheetbench2/scoring/scoreTask';

export interface RecordInput {
  runDir: string;
  taskId: string;
  failure?: { class: TaskFailureClass; message: string };
  spend: { usage: TokenUsage; costUsd: number; llmCalls: number };
  wallMs: number;
}

/**
 * The task's output (`V2RunFiles.outputPath`, recalculated) scored exactly as evaluation.py scores it
 * (`scoreV2Attempt`, cell diffs beside the task's records), with the episode's model calls as its `interaction_turns`
 * (the official tool reads them from the trajectory's `api_calls`); results/<key>.json (the shared TaskResult + `v2`)
 * and the episode record (how it ended) written. Idempotent.
 */
export async function scoreAndRecord(input: RecordInput & { episode?: EpisodeRecord }): Promise<{ soft: number }> {
  const run = await v2Run(input.runDir);
  const task = run.task(input.taskId);
  const key = input.taskId;
  if (input.episode) await writeJsonAtomic(scaffoldPaths.episode(run.layout.taskDir(key)), input.episode);
  const scored = await scoreV2Attempt({
    task,
    key,
    files: { ...datasetFilesOf(task, run.files.outputsDir), output: run.files.outputPath(key) },
    cellDiffsPath: run.files.cellDiffsPath(key),
  });
  const failure = input.failure ?? scored.failure;
  const result: V2TaskResult = {
    taskId: key,
    id: task.id,
    ...scored,
    ...(failure ? { failure } : {}),
    v2: { ...scored.v2, interactionTurns: input.spend.llmCalls },
    llmCalls: input.spend.llmCalls,
    usage: input.spend.usage,
    costUsd: input.spend.costUsd,
    stages: [
      {
        stage: 'scaffold',
        llmCalls: input.spend.llmCalls,
        usage: input.spend.usage,
        costUsd: input.spend.costUsd,
        wallMs: input.wallMs,
        outcome: input.episode?.exitStatus ?? 'not_run',
      },
    ],
    wallMs: input.wallMs,
  };
  await writeJsonAtomic(run.layout.taskResultPath(key), result);
  return { soft: scored.soft };
}
