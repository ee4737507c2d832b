import { analysisRun } from '../../benchmarks/analysis/run';
import { prepareRequest, type Preparation } from '../../benchmarks/analysis/request';
import { recordRequestResult, type RecordInput } from '../../benchmarks/analysis/result';
import type { TaskFailureClass } from '../../contracts/taskResult';
import type { WorkerDeps } from '../deps';

/** The analysis benchmark's activities: thin adapters over benchmarks/analysis/. */
export function requestActivities(deps: WorkerDeps) {
  return {
    /** The request's conversation folder with its files, and the message (refused here, named, if the conversation would refuse it). */
    async prepareAnalysisRequest(input: {
      runDir: string;
      taskId: string;
      taskWorkflowId: string;
    }): Promise<Preparation> {
      return prepareRequest(await analysisRun(input.runDir), input.taskId, input.taskWorkflowId, deps.config);
    },

    async recordAnalysisResult(
      input: RecordInput & { runDir: string },
    ): Promise<{ pass: boolean; status: string; failureClass?: TaskFailureClass }> {
      const result = await recordRequestResult(await analysisRun(input.runDir), input);
      return {
        pass: result.pass,
        status: result.status,
        ...(result.failure ? { failureClass: result.failure.class } : {}),
      };
    },
  };
}
