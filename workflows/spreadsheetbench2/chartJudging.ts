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
 * The call key parts after `chart-judge` of a call: `chart-group-<g>` (1-based) when the charts are judged in groups
 * (one call per chart the checklist names), then the round's.
 */
export const judgeCallParts = (round: number, group?: number): string[] => [
  ...(group === undefined ? [] : [`chart-group-${group + 1}`]),
  ...repairOf(round),
];

/**
 * The judging step of a v2 task, whatever its agent (after the output's recalculation, before scoring): under the
 * patch, the task's charts judged through the task's budget (`…/chart-judge[/repair-<n>]` call keys); a history
 * recorded before the patch has no judging step and replays without one. Returns the judge's spend (zero without it).
 */
export async function judgeTaskCharts(input: TaskWorkflowInput, budget: TaskBudget): Promise<Spend> {
  if (!patched(CHART_JUDGING_PATCH)) return Spend.zero();
  stage('judge'); // Visualization tasks only; its spend is the judgment's, not the agent's
  const keyOf = (round: number, group?: number) =>
    callKeyOf([input.runId, input.taskId, 'chart-judge', ...judgeCallParts(round, group)], input.rerunTag);
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
 * When the charts are judged in groups (the prepare step says how many: one per chart the checklist names by title,
 * one for the other items), each group is judged so in turn (`callKeyOf(round, group)`). A first call that fails after
 * its retries, or that the budget refuses, is recorded as `judge_failed` (rejudge judges it again; a failed repair
 * keeps the items answered before) and the task goes on. Returns the calls' spend; it is the judgment's, not the
 * agent's. A history recorded before groups existed has no `groups` in its prepare result: one group, the same commands.
 */
export async function judgeV2TaskCharts(
  input: { runDir: string; taskId: string; callKeyOf: (round: number, group?: number) => string; judgeModel?: string },
  around: AroundCall,
): Promise<Spend> {
  const { runDir, taskId, judgeModel } = input;
  const { judge, groups } = await execution.prepareV2ChartJudgment({ runDir, taskId, judgeModel });
  if (!judge) return Spend.zero();
  let spend = Spend.zero();
  for (let g = 0; g < (groups ?? 1); g++) {
    const group = groups === undefined ? undefined : g;
    const judged = await judgeGroup({ runDir, taskId, judgeModel, callKeyOf: input.callKeyOf }, group, around);
    spend = Spend.add(spend, judged.spend);
    if (judged.failed) break; // as the release: a group whose first call failed fails the whole judgment
  }
  return spend;
}

/** One group's calls (all the charts' when `group` is undefined): the first, then up to REPAIR_ROUNDS repairs. */
async function judgeGroup(
  input: { runDir: string; taskId: string; callKeyOf: (round: number, group?: number) => string; judgeModel?: string },
  group: number | undefined,
  around: AroundCall,
): Promise<{ spend: Spend; failed: boolean }> {
  const { runDir, taskId, judgeModel } = input;
  let spend = Spend.zero();
  for (let round = 0; round <= REPAIR_ROUNDS; round++) {
    const callKey = input.callKeyOf(round, group);
    const ask = { runDir, taskId, callKey, round, judgeModel, ...(group === undefined ? {} : { group }) };
    let call: { usage: Spend['usage']; costUsd: number; askAgain?: boolean };
    try {
      call = await around(callKey, () => llm.judgeV2Charts(ask));
    } catch (err) {
      if (isCancellation(err)) throw err;
      // A failed repair keeps the items answered so far, as the release does; a failed first call is recorded.
      if (round > 0) break;
      await bookkeeping.recordV2ChartJudgeFailure({
        runDir,
        taskId,
        callKey,
        judgeModel,
        message: failureMessage(err),
      });
      return { spend, failed: true };
    }
    spend = Spend.add(spend, Spend.ofCall(call));
    if (!call.askAgain) break;
  }
  return { spend, failed: false };
}
