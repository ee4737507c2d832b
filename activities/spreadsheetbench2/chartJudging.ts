/**
 * SpreadsheetBench 2 Visualization judging, in three activities so that the model call is one of its own: the charts
 * exported and stored (or the final judgment when there is nothing to judge, or `unjudged` without a judge), the one
 * vision call (the run's response cache under its call key: a retry after kill -9 is answered from it, never paid
 * twice; its cost from llm.prices), and the record of a call that failed after its retries. Each writes
 * tasks/<key>/chart-judgment.json; the task's result is never touched.
 */
import { cancellationSignal } from '@temporalio/activity';
import { cachedComplete, ResponseCache } from '../../lib/llm';
import { v2Run } from '../../benchmarks/spreadsheetbench2/run/files';
import { VISUALIZATION_CATEGORY } from '../../benchmarks/spreadsheetbench2/dataset';
import { checklistOf, judgeRequest, verdictOf } from '../../benchmarks/spreadsheetbench2/visualization/checklistJudge';
import { writeChartJudgment } from '../../benchmarks/spreadsheetbench2/visualization/chartJudgment';
import { prepareCharts, readPreparedCharts } from '../../benchmarks/spreadsheetbench2/visualization/preparedCharts';
import { visionEndpointOf } from '../../benchmarks/spreadsheetbench2/visualization/visionEndpoint';
import { costOfResponse, providerFor, underRetryPolicy } from '../llm/modelCall';
import { withHeartbeat } from '../heartbeat';
import type { WorkerDeps } from '../deps';

export interface ChartJudgeInput {
  runDir: string;
  taskId: string;
  /** rejudge --judge-model. */
  judgeModel?: string;
}

export interface ChartJudgeCallResult {
  usage: { inputTokens: number; outputTokens: number };
  costUsd: number;
  cached: boolean;
}

/** Whether the task is judged by a model now: false for other categories, and when a final judgment was written. */
export async function prepareChartJudgment(deps: WorkerDeps, input: ChartJudgeInput): Promise<{ judge: boolean }> {
  const run = await v2Run(input.runDir);
  const task = run.task(input.taskId);
  if (task.category !== VISUALIZATION_CATEGORY) return { judge: false };
  const endpoint = visionEndpointOf(deps.config.visionJudge, process.env, input.judgeModel);
  if (!endpoint.ready) {
    await writeChartJudgment(input.runDir, {
      taskId: input.taskId,
      verdict: 'unjudged',
      message: `task ${String(task.id)}: not judged: ${endpoint.reason}`,
    });
    return { judge: false };
  }
  const prepared = await withHeartbeat(() =>
    prepareCharts(input.runDir, task, input.taskId, run.files.outputPath(input.taskId), deps.config.visionJudge),
  );
  if (!prepared.ready) await writeChartJudgment(input.runDir, { ...prepared.judgment, model: endpoint.model });
  return { judge: prepared.ready };
}

/** The one vision call of a judgment, on the charts prepareChartJudgment stored. */
export async function judgeCharts(
  deps: WorkerDeps,
  input: ChartJudgeInput & { callKey: string },
): Promise<ChartJudgeCallResult> {
  const run = await v2Run(input.runDir);
  const task = run.task(input.taskId);
  const endpoint = visionEndpointOf(deps.config.visionJudge, process.env, input.judgeModel);
  if (!endpoint.ready) throw new Error(`task ${String(task.id)}: cannot judge its charts: ${endpoint.reason}`);
  const { stored, images } = await readPreparedCharts(input.runDir, input.taskId);
  const checklist = checklistOf(task);
  const request = judgeRequest(endpoint, checklist, images);
  const provider = providerFor(deps, {
    provider: 'openai',
    baseUrl: endpoint.baseUrl,
    apiKey: endpoint.apiKey,
    requestTimeoutMs: endpoint.requestTimeoutMs,
    modelCapabilities: deps.config.llm.modelCapabilities,
  });
  const response = await underRetryPolicy(deps.config.llm, () =>
    cachedComplete(provider, new ResponseCache(run.layout.llmCacheDir), request, {
      callKey: input.callKey,
      signal: cancellationSignal(),
    }),
  );
  const costUsd = costOfResponse(response, endpoint.model, deps);
  await writeChartJudgment(input.runDir, {
    taskId: input.taskId,
    ...verdictOf(response.text, checklist),
    model: endpoint.model,
    callKey: input.callKey,
    reply: response.text,
    images: stored.charts.map(({ label, sha256, bytes }) => ({ label, sha256, bytes })),
    ...(stored.chartsLeftOut ? { chartsLeftOut: stored.chartsLeftOut } : {}),
    usage: response.usage,
    costUsd,
  });
  return { usage: response.usage, costUsd, cached: response.cached };
}

/** A judgment whose call failed after its retries (or was refused by the budget): accuracy 0, re-judged by rejudge. */
export async function recordChartJudgeFailure(
  deps: WorkerDeps,
  input: ChartJudgeInput & { callKey: string; message: string },
): Promise<void> {
  const run = await v2Run(input.runDir);
  const task = run.task(input.taskId);
  const endpoint = visionEndpointOf(deps.config.visionJudge, process.env, input.judgeModel);
  await writeChartJudgment(input.runDir, {
    taskId: input.taskId,
    verdict: 'judge_failed',
    accuracy: 0,
    message: `task ${String(task.id)}: the vision judge's call failed: ${input.message}`,
    callKey: input.callKey,
    ...(endpoint.ready ? { model: endpoint.model } : {}),
  });
}
