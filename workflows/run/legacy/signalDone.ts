import { getExternalWorkflowHandle } from '@temporalio/workflow';
import { taskDoneSignal, type TaskCompletion, type TaskDoneSignal } from '../../../contracts/run';
import type { RunReport } from '../runReport';

/**
 * FROZEN. How task workflows recorded before the local-activity report sent their done summary: as a signal command
 * (spreadsheetTask before 'task-paths-v6', dsbenchTask and analysisTask before 'done-by-local-activity').
 */
export async function reportDone(
  report: RunReport,
  done: TaskDoneSignal,
  byLocalActivity: boolean,
): Promise<TaskCompletion> {
  if (byLocalActivity) return report.send(done);
  const runWorkflowId = report.recipient();
  if (runWorkflowId) await getExternalWorkflowHandle(runWorkflowId).signal(taskDoneSignal, done);
  return { done };
}
