import { isCancellation, patched } from '@temporalio/workflow';
import type { TaskWorkflowInput } from '../../contracts/run';
import { callKeyOf } from '../../lib/llm/callKey';
import { Spend } from '../../lib/llm/usage';
import type { TaskBudget } from '../run/budget';
import { failureMessage } from '../run/taskFailure';
import { bookkeeping, execution, llm } from './activities';
import { stage } from './taskSteps';

/**
 * The patch under which a v2 task judges its charts (workflows/VERSIONS.md): histories recorded before it have no
 * judging step and replay without one.
 */
export const CHART_JUDGING_PATCH = 'sb2-chart-judging';

/** As the release's evaluator: after a reply that left items out, at most this many more calls ask for those only. */
export const REPAIR_ROUNDS = 2;

/** The call key parts after `chart-judge` of a round: none for the first call, `repair-<n>` for a repair. */
export const repairOf = (round: number): string[] => (round ? [`repair-${round}`] : []);

/**
 * The judging step of a v2 task, whatever its agent (after the output's recalculation, before scoring): under the
 * patch, the task's charts judged through the task's budget (`…/chart-judge[/repair-<n>]` call keys); a history
 * recorded before the patch has no judging step and replays without one. Returns the judge's spend (zero without it).
 */
export async function judgeTaskCharts(input: TaskWorkflowInput, budget: TaskBudget): Promise<Spend> {
  if (!patched(CHART_JUDGING_PATCH)) return Spend.zero();
  stage('judge'); // Visualization tasks only; its spend is the judgment's, not the agent's
  const keyOf = (round: number) =>
    callKeyOf([input.runId, input.taskId, 'chart-judge', ...repairOf(round)], input.rerunTag);
  return judgeV2TaskCharts({ runDir: input.runDir, taskId: input.taskId, callKeyOf: keyOf }, (key, call) =>
    budget.around(key, call),
  );
}

/** Runs one model call under a budget (a task's `TaskBudget.around`; a rejudge's plain batch gate). */
export type AroundCall = <T extends { usage: { inputTokens: number; outputTokens: number }; costUsd: number }>(
  callKey: string,
  call: () => Promise<T>,
) => Promise<T>;

/**
 * A v2 task's charts judged, after its output was recalculated (activities/spreadsheetbench2/chartJudging.ts): the
 * charts exported and stored (nothing for a task of another category; the final judgment when there is nothing to
 * judge or no judge), then the vision call through `around` (the run's budget), and, while its reply left checklist
 * items out, up to REPAIR_ROUNDS calls asking for those items only (`callKeyOf(round)`; round 0 is the first call).
 * A first call that fails after its retries, or that the budget refuses, is recorded as `judge_failed` (rejudge judges
 * it again; a failed repair keeps the items answered before) and the task goes on. Returns the calls' spend; it is the judgment's, not the agent's.
 */
export async function judgeV2TaskCharts(
  input: { runDir: string; taskId: string; callKeyOf: (round: number) => string; judgeModel?: string },
  around: AroundCall,
): Promise<Spend> {
  const { runDir, taskId, judgeModel } = input;
  const { judge } = await execution.prepareV2ChartJudgment({ runDir, taskId, judgeModel });
  if (!judge) return Spend.zero();
  let spend = Spend.zero();
  for (let round = 0; round <= REPAIR_ROUNDS; round++) {
    const callKey = input.callKeyOf(round);
    let call: { usage: Spend['usage']; costUsd: number; askAgain?: boolean };
    try {
      call = await around(callKey, () => llm.judgeV2Charts({ runDir, taskId, callKey, round, judgeModel }));
    } catch (err) {
      if (isCancellation(err)) throw err;
      // A failed repair keeps the items answered so far, as the release does; a failed first call is recorded.
      if (round === 0)
        await bookkeeping.recordV2ChartJudgeFailure({
          runDir,
          taskId,
          callKey,
          judgeModel,
          message: failureMessage(err),
        });
      break;
    }
    spend = Spend.add(spend, Spend.ofCall(call));
    if (!call.askAgain) break;
  }
  return spend;
}
