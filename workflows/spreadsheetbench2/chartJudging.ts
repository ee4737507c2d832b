import { isCancellation } from '@temporalio/workflow';
import { Spend } from '../../lib/llm/usage';
import { failureMessage } from '../run/taskFailure';
import { bookkeeping, execution, llm } from './activities';

/**
 * The patch under which a v2 task judges its charts (workflows/VERSIONS.md): histories recorded before it have no
 * judging step and replay without one.
 */
export const CHART_JUDGING_PATCH = 'sb2-chart-judging';

/** Runs one model call under a budget (a task's `TaskBudget.around`; a rejudge's plain batch gate). */
export type AroundCall = <T extends { usage: { inputTokens: number; outputTokens: number }; costUsd: number }>(
  callKey: string,
  call: () => Promise<T>,
) => Promise<T>;

/**
 * A v2 task's charts judged, after its output was recalculated (activities/spreadsheetbench2/chartJudging.ts): the
 * charts exported and stored (nothing for a task of another category; the final judgment when there is nothing to
 * judge or no judge), then the one vision call through `around` (the run's budget). A call that fails after its
 * retries, or that the budget refuses, is recorded as `judge_failed` (rejudge judges it again) and the task goes on.
 * Returns the call's spend (none when no call was made); it is the judgment's, not the agent's.
 */
export async function judgeV2TaskCharts(
  input: { runDir: string; taskId: string; callKey: string; judgeModel?: string },
  around: AroundCall,
): Promise<Spend> {
  const { runDir, taskId, callKey, judgeModel } = input;
  const { judge } = await execution.prepareV2ChartJudgment({ runDir, taskId, judgeModel });
  if (!judge) return Spend.zero();
  try {
    return Spend.ofCall(await around(callKey, () => llm.judgeV2Charts({ runDir, taskId, callKey, judgeModel })));
  } catch (err) {
    if (isCancellation(err)) throw err;
    await bookkeeping.recordV2ChartJudgeFailure({ runDir, taskId, callKey, judgeModel, message: failureMessage(err) });
    return Spend.zero();
  }
}
