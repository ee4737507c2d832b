import { throughBatch } from '../run/batchedCall';
import { rejudgeTasks } from '../run/rejudgeTasks';
import { callKeyOf } from '../../lib/llm/callKey';
import type { RejudgeInput } from '../../contracts/run';
import { judgeCallParts, judgeV2TaskCharts } from './chartJudging';
import { useFailover } from '../run/failover';

/**
 * `sheetbench rejudge` of a SpreadsheetBench 2 run: its Visualization tasks' charts judged again from the recorded
 * outputs (a judge configured since, another model, an unparseable reply, a failed call) without running the agent:
 * per task the charts exported again and one vision call under this rejudge's call key, then the run's summary
 * rewritten. Results and outputs are untouched; only tasks/<key>/chart-judgment.json changes.
 */
export async function spreadsheetBench2Rejudge(input: RejudgeInput): Promise<{ rejudged: number }> {
  useFailover(input.failover);
  return rejudgeTasks(input, (taskId) =>
    judgeV2TaskCharts(
      {
        runDir: input.runDir,
        taskId,
        callKeyOf: (round, group) =>
          callKeyOf([input.runId, taskId, 'chart-judge', ...judgeCallParts(round, group)], input.tag),
        judgeModel: input.judgeModel,
      },
      (_key, call) => throughBatch(call),
    ),
  );
}
