import { CancellationScope, isCancellation, upsertSearchAttributes } from '@temporalio/workflow';
import type { TaskCompletion, TaskWorkflowInput } from '../../../contracts/run';
import type { TaskFailureClass } from '../../../contracts/taskResult';
import { Spend } from '../../../lib/llm/usage';
import { SA } from '../../../lib/temporal/searchAttributes';
import { startEpisode } from '../../../benchmarks/spreadsheetbench2/scaffold/episode';
import type { EpisodeRecord } from '../../../benchmarks/spreadsheetbench2/scaffold/episodeFiles';
import { TaskBudget } from '../../run/budget';
import { RunReport } from '../../run/runReport';
import { classifyFailure } from '../../run/taskFailure';
import { bookkeeping } from '../activities';
import { recalculateOutput, runEpisode, stage } from '../taskSteps';

/**
 * The first generation of `spreadsheetBench2Task` (before the marker `sb2-task-v2`), frozen: histories recorded
 * before the marker replay here (workflows/VERSIONS.md). It gave the agent the dataset's input and scored against the
 * dataset's answer, not their recalculated copies.
 *
 * One SpreadsheetBench 2 task with the paper's scaffold: prepare the work folder (the input only) → turns of (model
 * call → shell command in a fresh sandbox over that folder) under the episode's rules (benchmarks/spreadsheetbench2/
 * scaffold/episode.ts) → collect the output → recalculate it → score as evaluation.py → record → the done summary.
 * Each model call and each command is its own activity; every model call goes through the run's budget.
 */
export async function spreadsheetBench2TaskV1(input: TaskWorkflowInput): Promise<TaskCompletion> {
  const report = new RunReport(input.reportBy);
  const budget = new TaskBudget(input);
  const startedAt = Date.now();
  let spend = Spend.zero();
  let failure: { class: TaskFailureClass; message: string } | undefined;
  let episode: EpisodeRecord | undefined;
  try {
    stage('prepare');
    const limits = await bookkeeping.prepareV2Episode({ runDir: input.runDir, taskId: input.taskId });
    stage('agent');
    const state = startEpisode();
    try {
      await runEpisode(input, limits, budget, state, (s) => (spend = Spend.add(spend, s)));
    } catch (err) {
      // As SWE-agent's autosubmission after an error: the episode ends and what the agent left is scored.
      if (isCancellation(err)) throw err;
      failure = classifyFailure(err);
      state.exit = 'exit_error';
    }
    stage('collect');
    const collected = await bookkeeping.collectV2Output({ runDir: input.runDir, taskId: input.taskId });
    episode = {
      exitStatus: state.exit ?? 'exit_error',
      modelCalls: state.modelCalls,
      turns: state.turn,
      output: collected.outputPath !== undefined,
      ...(collected.problem ? { outputProblem: collected.problem } : {}),
    };
    if (collected.outputPath && input.recalcTaskQueue) {
      stage('recalc');
      failure ??= await recalculateOutput(input.recalcTaskQueue, collected.outputPath);
    }
  } catch (err) {
    if (isCancellation(err)) throw err;
    failure = classifyFailure(err);
  } finally {
    await CancellationScope.nonCancellable(() =>
      bookkeeping.removeV2WorkDir({ runDir: input.runDir, taskId: input.taskId }),
    ).catch(() => undefined); // best-effort: a folder left behind holds only this task's files
  }
  stage('score');
  const { soft } = await bookkeeping.scoreAndRecordV2Task({
    runDir: input.runDir,
    taskId: input.taskId,
    failure,
    episode,
    spend: { usage: spend.usage, costUsd: spend.costUsd, llmCalls: spend.llmCalls },
    wallMs: Date.now() - startedAt,
  });
  upsertSearchAttributes([
    { key: SA.status, value: failure ? `failed:${failure.class}` : 'scored' },
    { key: SA.costUsd, value: spend.costUsd },
  ]);
  return report.send({
    taskId: input.taskId,
    soft,
    hard: soft,
    failureClass: failure?.class,
    usage: spend.usage,
    costUsd: spend.costUsd,
    llmCalls: spend.llmCalls,
    budgeted: input.budgeted ?? false,
  });
}
