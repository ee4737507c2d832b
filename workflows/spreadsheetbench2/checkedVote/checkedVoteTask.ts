import { isCancellation, upsertSearchAttributes } from '@temporalio/workflow';
import type { TaskCompletion, TaskWorkflowInput } from '../../../contracts/run';
import type { TaskFailureClass } from '../../../contracts/taskResult';
import { SA } from '../../../lib/temporal/searchAttributes';
import { adapterRunDirOf } from '../../../benchmarks/spreadsheetbench2/checkedVote/adapterFolder';
import type { V2DatasetCopies } from '../../../benchmarks/spreadsheetbench2/run/datasetCopies';
import { classifyFailure } from '../../run/taskFailure';
import { beginTask, runAgent, stageRunner } from '../../spreadsheetbench/taskSteps';
import { bookkeeping } from '../activities';
import { judgeTaskCharts } from '../chartJudging';
import { recalculateDataset, recalculateOutput, reportScoredTask } from '../taskSteps';

/** The Stage search attribute follows the ledger's stages. */
const inStage = stageRunner((previous, stage) => previous !== stage);

/**
 * Our own agent, checked_vote, on one SpreadsheetBench 2 task, through its adapter (benchmarks/spreadsheetbench2/
 * checkedVote/adapter.ts): the dataset's files recalculated → the task's one-test-case SpreadsheetBench run folder
 * (`prepare`) → checked_vote exactly as on SpreadsheetBench (its ledger stages `view`, `cand-<k>.<attempt>`, `vote`;
 * every model call, execution, recalculation and check its own activity, every call through the run's budget) → its
 * submission collected as the v2 output (`collect`) → recalculated (`recalc`) → a Visualization task's charts judged
 * (chartJudging.ts, as the scaffold's; not a ledger stage: its spend is the judgment's) → scored as evaluation.py
 * against the recalculated answer → recorded with the ledger's stages → the done summary.
 */
export async function checkedVoteV2Task(input: TaskWorkflowInput): Promise<TaskCompletion> {
  const { report, ledger, budget, startedAt } = beginTask(input);
  const task = { runDir: input.runDir, taskId: input.taskId };
  let failure: { class: TaskFailureClass; message: string } | undefined;
  let copies: V2DatasetCopies | undefined;
  try {
    const prepared = await inStage(ledger, 'prepare', async () => {
      copies = await recalculateDataset(input);
      return bookkeeping.prepareV2CheckedVote({ ...task, copies });
    });
    const adapted: TaskWorkflowInput = { ...input, runDir: adapterRunDirOf(input.runDir, input.taskId) };
    // checked_vote opens no kernel session: there is none to close.
    const outcome = await runAgent(adapted, prepared, ledger, budget, inStage, () => Promise.resolve());
    if (outcome.problem) failure = { class: 'model', message: outcome.problem };
    const collected = await inStage(ledger, 'collect', () => bookkeeping.collectV2CheckedVoteOutput(task));
    const queue = input.recalcTaskQueue;
    if (collected.outputPath && queue) {
      const output = collected.outputPath;
      failure ??= await inStage(ledger, 'recalc', () => recalculateOutput(queue, output));
    }
  } catch (err) {
    if (isCancellation(err)) throw err;
    failure = classifyFailure(err);
  }
  const judgeSpend = await judgeTaskCharts(input, budget);
  upsertSearchAttributes([{ key: SA.stage, value: 'score' }]);
  const spend = ledger.totals();
  const { soft } = await bookkeeping.scoreAndRecordV2Task({
    ...task,
    failure,
    copies,
    stages: ledger.stages,
    spend: { usage: spend.usage, costUsd: spend.costUsd, llmCalls: spend.llmCalls },
    wallMs: Date.now() - startedAt,
  });
  return reportScoredTask(input, report, { soft, failure, spend, judgeSpend });
}
