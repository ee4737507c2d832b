import { ApplicationFailure, CancellationScope, isCancellation, patched } from '@temporalio/workflow';
import type { TaskCompletion, TaskWorkflowInput } from '../../contracts/run';
import type { TaskFailureClass } from '../../contracts/taskResult';
import { FailureTypes } from '../../lib/failureTypes';
import { Spend } from '../../lib/llm/usage';
import { startEpisode } from '../../benchmarks/spreadsheetbench2/scaffold/episode';
import type { EpisodeRecord } from '../../benchmarks/spreadsheetbench2/scaffold/episodeFiles';
import type { V2DatasetCopies } from '../../benchmarks/spreadsheetbench2/run/datasetCopies';
import { TaskBudget } from '../run/budget';
import { RunReport } from '../run/runReport';
import { classifyFailure } from '../run/taskFailure';
import { CURRENT } from '../versions';
import { bookkeeping } from './activities';
import { judgeTaskCharts } from './chartJudging';
import { checkedVoteV2Task } from './checkedVote/checkedVoteTask';
import { spreadsheetBench2TaskV1 } from './legacy/spreadsheetBench2TaskV1';
import { recalculateDataset, recalculateOutput, reportScoredTask, runEpisode, stage } from './taskSteps';
import { useFailover } from '../run/failover';

/** The agents a v2 task runs, by `--agent`: the paper's scaffold, and our own agent through its adapter. */
const AGENTS: Record<string, (input: TaskWorkflowInput) => Promise<TaskCompletion>> = {
  swe_agent: sweAgentTask,
  checked_vote: checkedVoteV2Task,
};

/**
 * One SpreadsheetBench 2 task, with the run's agent. The task's input and answer are recalculated first (once per
 * content, on the recalc queue; the dataset's files are only read): the agent works on the recalculated input, a
 * Visualization task's charts are judged (chartJudging.ts) and the output is scored against the recalculated answer.
 * Histories recorded before this generation replay on the legacy copy (workflows/VERSIONS.md).
 */
export async function spreadsheetBench2Task(input: TaskWorkflowInput): Promise<TaskCompletion> {
  useFailover(input.failover);
  if (!patched(CURRENT.spreadsheetBench2Task)) return spreadsheetBench2TaskV1(input);
  const agent = AGENTS[input.agent];
  if (!agent)
    throw ApplicationFailure.nonRetryable(`unknown SpreadsheetBench 2 agent ${input.agent}`, FailureTypes.ConfigError);
  return agent(input);
}

/**
 * The paper's scaffold: the dataset's files recalculated → prepare the work folder (the recalculated input only) →
 * turns of (model call → shell command in a fresh sandbox over that folder) under the episode's rules
 * (benchmarks/spreadsheetbench2/scaffold/episode.ts) → collect the output → recalculate it → judge a Visualization
 * task's charts → score as evaluation.py against the recalculated answer → record → the done summary. Each model
 * call and each command is its own activity; every model call goes through the run's budget.
 */
async function sweAgentTask(input: TaskWorkflowInput): Promise<TaskCompletion> {
  const report = new RunReport(input.reportBy);
  const budget = new TaskBudget(input);
  const startedAt = Date.now();
  let spend = Spend.zero();
  let failure: { class: TaskFailureClass; message: string } | undefined;
  let episode: EpisodeRecord | undefined;
  let copies: V2DatasetCopies | undefined;
  try {
    stage('prepare');
    copies = await recalculateDataset(input);
    const limits = await bookkeeping.prepareV2Episode({ runDir: input.runDir, taskId: input.taskId, copies });
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
  const judgeSpend = await judgeTaskCharts(input, budget);
  stage('score');
  const { soft } = await bookkeeping.scoreAndRecordV2Task({
    runDir: input.runDir,
    taskId: input.taskId,
    failure,
    episode,
    copies,
    spend: { usage: spend.usage, costUsd: spend.costUsd, llmCalls: spend.llmCalls },
    wallMs: Date.now() - startedAt,
  });
  return reportScoredTask(input, report, { soft, failure, spend, judgeSpend });
}
