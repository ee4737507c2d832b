import { writeJsonAtomic } from '../../lib/runStore/files';
import type { StageRecord, TaskFailureClass } from '../../contracts/taskResult';
import type { TokenUsage } from '../../lib/llm/types';
import { scaffoldPaths, type EpisodeRecord } from '../../benchmarks/spreadsheetbench2/scaffold/episodeFiles';
import { v2Run } from '../../benchmarks/spreadsheetbench2/run/files';
import { scoreV2Attempt } from '../../benchmarks/spreadsheetbench2/run/scoreAttempt';
import type { V2TaskResult } from '../../benchmarks/spreadsheetbench2/run/taskResult';
import { scoredFilesOf, type V2DatasetCopies } from '../../benchmarks/spreadsheetbench2/run/datasetCopies';

export interface RecordInput {
  runDir: string;
  taskId: string;
  failure?: { class: TaskFailureClass; message: string };
  spend: { usage: TokenUsage; costUsd: number; llmCalls: number };
  wallMs: number;
  /** The input and answer recalculated for the run (absent: the dataset's files, as runs before them were scored). */
  copies?: V2DatasetCopies;
  /** The agent's ledger stages (checked_vote's); absent: the scaffold's episode as one stage. */
  stages?: StageRecord[];
}

/**
 * The task's output (`V2RunFiles.outputPath`, recalculated) scored exactly as evaluation.py scores it, against the
 * recalculated input and answer where the run made them
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
    files: scoredFilesOf(task, key, run.files, input.copies),
    cellDiffsPath: run.files.cellDiffsPath(key),
  });
  const failure = input.failure ?? scored.failure;
  const result: V2TaskResult = {
    taskId: key,
    id: task.id,
    ...scored,
    ...(failure ? { failure } : {}),
    v2: {
      ...scored.v2,
      interactionTurns: input.spend.llmCalls,
      ...(input.copies ? { datasetCopies: input.copies } : {}),
    },
    llmCalls: input.spend.llmCalls,
    usage: input.spend.usage,
    costUsd: input.spend.costUsd,
    stages: input.stages ?? [
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
