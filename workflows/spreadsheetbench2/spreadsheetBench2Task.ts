import { CancellationScope, isCancellation, patched, upsertSearchAttributes } from '@temporalio/workflow';
import type { TaskCompletion, TaskWorkflowInput } from '../../contracts/run';
import type { TaskFailureClass } from '../../contracts/taskResult';
import { callKeyOf } from '../../lib/llm/callKey';
import { Spend } from '../../lib/llm/usage';
import { SA } from '../../lib/temporal/searchAttributes';
import {
  afterStep,
  beforeModelCall,
  startEpisode,
  type EpisodeLimits,
  type EpisodeState,
} from '../../benchmarks/spreadsheetbench2/scaffold/episode';
import type { EpisodeRecord } from '../../benchmarks/spreadsheetbench2/scaffold/episodeFiles';
import { TaskBudget } from '../run/budget';
import { RunReport } from '../run/runReport';
import { classifyFailure, failureMessage } from '../run/taskFailure';
import { bookkeeping, execution, llm, recalcOn } from './activities';
import { CHART_JUDGING_PATCH, judgeV2TaskCharts, repairOf } from './chartJudging';

/**
 * One SpreadsheetBench 2 task with the paper's scaffold: prepare the work folder (the input only) → turns of (model
 * call → shell command in a fresh sandbox over that folder) under the episode's rules (benchmarks/spreadsheetbench2/
 * scaffold/episode.ts) → collect the output → recalculate it → score as evaluation.py → record → the done summary.
 * Each model call and each command is its own activity; every model call goes through the run's budget.
 */
export async function spreadsheetBench2Task(input: TaskWorkflowInput): Promise<TaskCompletion> {
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
      failure ??= await recalculate(input.recalcTaskQueue, collected.outputPath);
    }
  } catch (err) {
    if (isCancellation(err)) throw err;
    failure = classifyFailure(err);
  } finally {
    await CancellationScope.nonCancellable(() =>
      bookkeeping.removeV2WorkDir({ runDir: input.runDir, taskId: input.taskId }),
    ).catch(() => undefined); // best-effort: a folder left behind holds only this task's files
  }
  let judgeSpend = Spend.zero();
  if (patched(CHART_JUDGING_PATCH)) {
    stage('judge'); // Visualization tasks only (chartJudging.ts); its spend is the judgment's, not the agent's
    const keyOf = (round: number) =>
      callKeyOf([input.runId, input.taskId, 'chart-judge', ...repairOf(round)], input.rerunTag);
    judgeSpend = await judgeV2TaskCharts(
      { runDir: input.runDir, taskId: input.taskId, callKeyOf: keyOf },
      (key, call) => budget.around(key, call),
    );
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
  // The run's spend counts the judge's calls too (the result's spend is the agent's: its calls are the interaction turns).
  const total = Spend.add(spend, judgeSpend);
  upsertSearchAttributes([
    { key: SA.status, value: failure ? `failed:${failure.class}` : 'scored' },
    { key: SA.costUsd, value: total.costUsd },
  ]);
  return report.send({
    taskId: input.taskId,
    soft,
    hard: soft,
    failureClass: failure?.class,
    usage: total.usage,
    costUsd: total.costUsd,
    llmCalls: total.llmCalls,
    budgeted: input.budgeted ?? false,
  });
}

/** Turns until the episode ends; `state` (updated in place) holds where it stands, also when a step fails. */
async function runEpisode(
  input: TaskWorkflowInput,
  limits: EpisodeLimits,
  budget: TaskBudget,
  state: EpisodeState,
  addSpend: (s: Spend) => void,
): Promise<void> {
  const advance = (next: EpisodeState) => void Object.assign(state, next);
  for (;;) {
    advance(beforeModelCall(state, limits));
    if (state.exit) return;
    const step = { runDir: input.runDir, taskId: input.taskId, turn: state.turn, attempt: state.attempt };
    const callKey = callKeyOf([input.runId, input.taskId, 'scaffold', state.turn, state.attempt], input.rerunTag);
    const reply = await budget.around(callKey, () => llm.v2ScaffoldModelCall({ ...step, callKey }));
    addSpend(Spend.ofCall(reply));
    if (!reply.runnable) {
      advance(afterStep(state, { kind: 'unrunnable' }, limits));
    } else {
      const ran = await execution.v2ScaffoldShellStep(step);
      advance(
        afterStep(
          state,
          ran.syntaxError ? { kind: 'unrunnable' } : { kind: 'ran', timedOut: ran.timedOut, submitted: ran.submitted },
          limits,
        ),
      );
    }
    if (state.exit) return;
  }
}

async function recalculate(
  queue: string,
  output: string,
): Promise<{ class: TaskFailureClass; message: string } | undefined> {
  try {
    await recalcOn(queue).recalcWorkbooks({ paths: [output] });
    return undefined;
  } catch (err) {
    if (isCancellation(err)) throw err;
    return { class: 'recalc', message: `recalculation failed: ${failureMessage(err)}` };
  }
}

function stage(name: string): void {
  upsertSearchAttributes([{ key: SA.stage, value: name }]);
}
