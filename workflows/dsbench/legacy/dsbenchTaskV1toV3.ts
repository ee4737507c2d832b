import { patched } from '@temporalio/workflow';
import type { TaskCompletion, TaskWorkflowInput } from '../../../contracts/run';
import { reportDone } from '../../run/legacy/signalDone';
import { RunReport } from '../../run/runReport';
import { answerAndJudge } from '../question';

/**
 * FROZEN. The DSBench question workflow as generations v1–v3 recorded it, for histories without the 'dsbench-task-v4'
 * marker: the done summary by signal command (v1) or, from 'done-by-local-activity' (v2) on, by local activity. Do not
 * change it; it retires as workflows/VERSIONS.md says.
 */
export async function dsbenchTaskV1toV3(input: TaskWorkflowInput): Promise<TaskCompletion> {
  const report = new RunReport(input.reportBy);
  const done = await answerAndJudge(input);
  return reportDone(report, done, patched('done-by-local-activity'));
}
