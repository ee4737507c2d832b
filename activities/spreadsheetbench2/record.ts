import path from 'node:path';
import { writeJsonAtomic } from '../../lib/runStore/files';
import { scaffoldPaths, type EpisodeRecord } from '../../benchmarks/spreadsheetbench2/scaffold/episodeFiles';
import { v2Run } from '../../benchmarks/spreadsheetbench2/run';
import { scoreV2Task } from '../../benchmarks/spreadsheetbench2/scoring/scoreTask';
import type { V2TaskResult } from '../../benchmarks/spreadsheetbench2/result';

export interface RecordInput {
  runDir: string;
  taskId: string;
  failure?: { class: string; message: string };
  spend: { usage: { inputTokens: number; outputTokens: number }; costUsd: number; llmCalls: number };
  wallMs: number;
}

/**
 * The task's output (in the run's outputs/, recalculated) scored exactly as evaluation.py scores it, with the
 * episode's model calls as its `interaction_turns` (the official tool reads them from the trajectory's `api_calls`);
 * results/<id>.json and the episode record written. Idempotent.
 */
export async function scoreAndRecord(input: RecordInput & { episode?: EpisodeRecord }): Promise<{ soft: number }> {
  const ctx = await v2Run(input.runDir);
  const task = ctx.task(input.taskId);
  const taskDir = ctx.layout.taskDir(input.taskId);
  if (input.episode) await writeJsonAtomic(scaffoldPaths.episode(taskDir), input.episode);
  const { score, missing } = await scoreV2Task(task, path.join(ctx.layout.root, 'outputs'));
  score.interaction_turns = input.spend.llmCalls;
  const result: V2TaskResult = {
    taskId: input.taskId,
    category: task.category,
    score,
    soft: score.accuracy,
    hard: score.accuracy,
    missingOutput: missing,
    exitStatus: input.episode?.exitStatus,
    modelCalls: input.spend.llmCalls,
    usage: input.spend.usage,
    costUsd: input.spend.costUsd,
    wallMs: input.wallMs,
    ...(input.failure ? { failure: input.failure } : {}),
  };
  await writeJsonAtomic(ctx.layout.taskResultPath(input.taskId), result);
  return { soft: score.accuracy };
}
