// The steps of a SpreadsheetBench 2 task that every generation of its workflow takes the same way.
import { isCancellation, upsertSearchAttributes } from '@temporalio/workflow';
import type { TaskCompletion, TaskWorkflowInput } from '../../contracts/run';
import type { TaskFailureClass } from '../../contracts/taskResult';
import { callKeyOf } from '../../lib/llm/callKey';
import { Spend } from '../../lib/llm/usage';
import { SA } from '../../lib/temporal/searchAttributes';
import {
  afterStep,
  beforeModelCall,
  type EpisodeLimits,
  type EpisodeState,
} from '../../benchmarks/spreadsheetbench2/scaffold/episode';
import type { TaskBudget } from '../run/budget';
import type { RunReport } from '../run/runReport';
import { failureMessage } from '../run/taskFailure';
import type { V2DatasetCopies } from '../../benchmarks/spreadsheetbench2/run/datasetCopies';
import { datasetRecalcOn, execution, llm, recalcOn } from './activities';

/** Turns until the episode ends; `state` (updated in place) holds where it stands, also when a step fails. */
export async function runEpisode(
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

/** The output recalculated in place on the recalc queue, as the release asks before scoring (open_spreadsheet.py). */
export async function recalculateOutput(
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

export function stage(name: string): void {
  upsertSearchAttributes([{ key: SA.stage, value: name }]);
}

/**
 * The task's input and answer recalculated (once per content, on the recalc queue) into the run folder; none without
 * a recalc queue (the dataset's files are then used as they are).
 */
export async function recalculateDataset(input: TaskWorkflowInput): Promise<V2DatasetCopies | undefined> {
  if (!input.recalcTaskQueue) return undefined;
  return datasetRecalcOn(input.recalcTaskQueue).v2RecalculatedCopies({ runDir: input.runDir, taskId: input.taskId });
}

/**
 * A scored v2 task's last steps, whichever agent ran it: its status and cost shown in the Temporal UI, then its result
 * sent to the run. The run's spend counts the chart judge's calls too; the task result's spend is the agent's alone
 * (its calls are the interaction turns).
 */
export async function reportScoredTask(
  input: TaskWorkflowInput,
  report: RunReport,
  scored: { soft: number; failure?: { class: TaskFailureClass }; spend: Spend; judgeSpend: Spend },
): Promise<TaskCompletion> {
  const total = Spend.add(scored.spend, scored.judgeSpend);
  upsertSearchAttributes([
    { key: SA.status, value: scored.failure ? `failed:${scored.failure.class}` : 'scored' },
    { key: SA.costUsd, value: total.costUsd },
  ]);
  return report.send({
    taskId: input.taskId,
    soft: scored.soft,
    hard: scored.soft,
    failureClass: scored.failure?.class,
    usage: total.usage,
    costUsd: total.costUsd,
    llmCalls: total.llmCalls,
    budgeted: input.budgeted ?? false,
  });
}
