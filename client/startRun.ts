import { WorkflowExecutionAlreadyStartedError, type Client, type WorkflowHandle } from '@temporalio/client';
import type { Config } from '../config/schema';
import type { RunManifest } from '../lib/runStore/manifest';
import { SA } from '../lib/temporal/searchAttributes';
import { benchmarkRun } from '../workflows/run/benchmarkRun';
import type { RunWorkflowInput } from '../contracts/run';
import { toPayloadPath } from '../lib/runStore/artifactsRoot';
import { benchmarkNamed } from '../benchmarks';
import { ATTEMPTS_FILE } from './createRun';
import { failoverInput, failoverStartOptions } from '../lib/temporal/failover';

export class RunExistsError extends Error {
  override name = 'RunExistsError';
}

/** Starts the run workflow (id = run id) with its search attributes and a memo of the experiment (no secrets). */
export async function startRunWorkflow(
  client: Client,
  config: Config,
  manifest: RunManifest,
  runDir: string,
  subset?: { workflowId: string; taskIdsFile: string; taskCount: number; childSuffix: string },
): Promise<WorkflowHandle<typeof benchmarkRun>> {
  // Relative to the artifacts root when inside it: workers that mount the store elsewhere find it under their own root.
  const payloadRunDir = toPayloadPath(runDir, config.artifacts.root);
  // A run with repeats runs its attempts: the run workflow sees them as its task list and needs nothing else.
  const epochs = manifest.epochs ?? 1;
  const all =
    epochs > 1
      ? { taskCount: manifest.taskCount * epochs, taskIdsFile: ATTEMPTS_FILE }
      : { taskCount: manifest.taskCount, taskIdsFile: undefined };
  const input: RunWorkflowInput = {
    runId: manifest.runId,
    runDir: payloadRunDir,
    taskCount: subset?.taskCount ?? all.taskCount,
    taskIdsFile: subset?.taskIdsFile ?? all.taskIdsFile,
    childSuffix: subset?.childSuffix,
    concurrency: config.run.concurrency,
    agent: manifest.agent,
    benchmark: manifest.benchmark,
    taskWorkflow: benchmarkNamed(manifest.benchmark).taskWorkflow,
    budgetUsd: config.run.budgetUsd,
    budgetTokens: config.run.budgetTokens,
    taskBudgetUsd: config.run.taskBudgetUsd,
    recalcTaskQueue: config.recalc.engine === 'none' ? undefined : config.temporal.recalcTaskQueue,
    failover: failoverInput(config),
  };
  try {
    return await client.workflow.start(benchmarkRun, {
      workflowId: subset?.workflowId ?? manifest.runId,
      taskQueue: config.temporal.taskQueue,
      args: [input],
      ...failoverStartOptions(config),
      typedSearchAttributes: [
        { key: SA.runId, value: manifest.runId },
        { key: SA.benchmark, value: manifest.benchmark },
        { key: SA.agent, value: manifest.agent },
        { key: SA.model, value: manifest.llm.model },
        { key: SA.status, value: 'running' },
      ],
      memo: {
        runDir: payloadRunDir,
        experimentHash: manifest.experimentHash,
        llm: { ...manifest.llm },
        agentSettings: manifest.agentSettings,
        dataset: manifest.datasetDir,
      },
      staticSummary: `${benchmarkNamed(manifest.benchmark).title}${manifest.edition ? ` ${manifest.edition}` : ''} ${manifest.agent} × ${manifest.llm.model}: ${manifest.taskCount} tasks${epochs > 1 ? ` × ${epochs} epochs` : ''}`,
    });
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError)
      throw new RunExistsError(`run ${manifest.runId} already exists`);
    throw err;
  }
}
