import { patched } from '@temporalio/workflow';
import type { TaskCompletion, TaskWorkflowInput } from '../../contracts/run';
import { RunReport } from '../run/runReport';
import { CURRENT } from '../versions';
import { dsbenchTaskV1toV3 } from './legacy/dsbenchTaskV1toV3';
import { answerAndJudge } from './question';
import { useFailover } from '../run/failover';

/**
 * One DSBench question: check its inputs → model-only: the competition's workbook text (prepared once, shared) and one
 * call; agent: a ReAct loop with code execution on the workbooks → the judge's call (its own activity) → record → the
 * done summary for the run. Histories recorded before this generation replay on the legacy copy.
 */
export async function dsbenchTask(input: TaskWorkflowInput): Promise<TaskCompletion> {
  useFailover(input.failover);
  if (!patched(CURRENT.dsbenchTask)) return dsbenchTaskV1toV3(input);
  const report = new RunReport(input.reportBy);
  return report.send(await answerAndJudge(input));
}
