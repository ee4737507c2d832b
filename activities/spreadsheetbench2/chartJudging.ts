/**
 * SpreadsheetBench 2 Visualization judging, in three activities so that the model call is one of its own: the charts
 * exported and stored (or the final judgment when there is nothing to judge, or `unjudged` without a judge), a vision
 * call (a first one, or a repair asking for the items left out; the run's response cache under its call key: a retry
 * after kill -9 is answered from it, never paid twice; its cost from llm.prices), and the record of a first call that
 * failed after its retries. Each writes
 * tasks/<key>/chart-judgment.json; the task's result is never touched.
 */
import { cancellationSignal } from '@temporalio/activity';
import { cachedComplete, ResponseCache } from '../../lib/llm';
import { v2Run } from '../../benchmarks/spreadsheetbench2/run/files';
import { VISUALIZATION_CATEGORY } from '../../benchmarks/spreadsheetbench2/dataset';
import { checklistOf, judgeRequest, verdictOf } from '../../benchmarks/spreadsheetbench2/visualization/checklistJudge';
import { writeChartJudgment } from '../../benchmarks/spreadsheetbench2/visualization/chartJudgment';
import { prepareCharts, readPreparedCharts } from '../../benchmarks/spreadsheetbench2/visualization/preparedCharts';
import { visionEndpointOf, type VisionEndpoint } from '../../benchmarks/spreadsheetbench2/visualization/visionEndpoint';
import { v2JudgeSettingsOf } from '../../benchmarks/spreadsheetbench2/visualization/judgeSettings';
import {
  itemsToAsk,
  roundsBefore,
  roundsOfGroup,
  verdictOfGroups,
  verdictOfRounds,
  writeJudgeRound,
  type JudgeRound,
} from '../../benchmarks/spreadsheetbench2/visualization/judgeRounds';
import type { ChartGroup } from '../../benchmarks/spreadsheetbench2/visualization/chartGroups';
import { TokenUsage } from '../../lib/llm/usage';
import type { ChatRequest, ChatResponse } from '../../lib/llm/types';
import { costOfResponse, providerFor, underRetryPolicy } from '../llm/modelCall';
import { payerOfThisActivity } from '../llm/payer';
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

/**
 * Whether the task is judged by a model now: false for other categories, and when a final judgment was written;
 * `groups` when its charts are judged in several calls (chartGroups.ts: one per chart named by the checklist, one for
 * the rest), absent when one call judges them all.
 */
export async function prepareChartJudgment(
  deps: WorkerDeps,
  input: ChartJudgeInput,
): Promise<{ judge: boolean; groups?: number }> {
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
    prepareCharts(
      input.runDir,
      task,
      input.taskId,
      { workbook: run.files.outputPath(input.taskId), image: run.files.outputImagePath(input.taskId) },
      deps.config.visionJudge,
    ),
  );
  if (!prepared.ready) {
    await writeChartJudgment(input.runDir, { ...prepared.judgment, model: endpoint.model });
    return { judge: false };
  }
  const groups = prepared.stored.groups?.length ?? 1;
  return { judge: true, ...(groups > 1 ? { groups } : {}) };
}

/**
 * One vision call of a judgment, on the charts prepareChartJudgment stored: round 0 asks for the whole checklist, a
 * later round (a repair) for the items the rounds before left out. The judgment is rewritten from every round so far;
 * `askAgain` says whether items are still missing after a round that answered (the workflow repairs at most twice).
 * With `group` (a judgment in groups), the call asks that group's items on its charts only, and its rounds are the
 * group's.
 */
export async function judgeCharts(
  deps: WorkerDeps,
  input: ChartJudgeInput & { callKey: string; round?: number; group?: number },
): Promise<ChartJudgeCallResult & { askAgain: boolean }> {
  const run = await v2Run(input.runDir);
  const task = run.task(input.taskId);
  const round = input.round ?? 0;
  const endpoint = visionEndpointOf(deps.config.visionJudge, process.env, input.judgeModel);
  if (!endpoint.ready) throw new Error(`task ${String(task.id)}: cannot judge its charts: ${endpoint.reason}`);
  const { stored, images } = await readPreparedCharts(input.runDir, input.taskId);
  const checklist = checklistOf(task);
  const groups: ChartGroup[] = stored.groups ?? [
    { charts: images.map((_, i) => i), items: checklist.map((c) => c.id) },
  ];
  const group = groups[input.group ?? 0];
  if (!group) throw new Error(`task ${String(task.id)}: its charts have no judge group ${String(input.group)}`);
  const groupChecklist = checklist.filter((c) => group.items.includes(c.id));
  const before = await roundsBefore(input.runDir, input.taskId, round, input.group);
  const asked = itemsToAsk(groupChecklist, before);
  const response = await askJudge(
    deps,
    run.layout.llmCacheDir,
    endpoint,
    judgeRequest(
      endpoint,
      asked,
      group.charts.map((i) => images[i]),
    ),
    input.callKey,
  );
  const costUsd = costOfResponse(response, endpoint.model, deps);
  const parsed = verdictOf(response.text, asked);
  const thisRound: JudgeRound = {
    round,
    callKey: input.callKey,
    asked: asked.map((c) => c.id),
    verdict: parsed.verdict,
    items: parsed.verdict === 'judged' ? parsed.items : [],
    reply: response.text,
    usage: { inputTokens: response.usage.inputTokens, outputTokens: response.usage.outputTokens },
    costUsd,
  };
  await writeJudgeRound(input.runDir, input.taskId, thisRound, input.group);
  const groupRounds = [...before, thisRound];
  const everyGroup: JudgeRound[][] = [];
  for (let g = 0; g <= (input.group ?? 0); g++)
    everyGroup.push(g === (input.group ?? 0) ? groupRounds : await roundsOfGroup(input.runDir, input.taskId, g));
  const rounds = everyGroup.flat();
  const verdict = verdictOfGroups(checklist, everyGroup);
  const groupVerdict = verdictOfRounds(groupChecklist, groupRounds);
  await writeChartJudgment(input.runDir, {
    taskId: input.taskId,
    ...verdict,
    model: endpoint.model,
    judge: v2JudgeSettingsOf(deps.config.visionJudge, input.judgeModel),
    callKey: rounds[0].callKey,
    reply: rounds[0].reply,
    rounds: rounds.length,
    images: stored.charts.map(({ label, sha256, bytes }) => ({ label, sha256, bytes })),
    ...(stored.chartsLeftOut ? { chartsLeftOut: stored.chartsLeftOut } : {}),
    usage: rounds.reduce((u, r) => TokenUsage.add(u, { ...TokenUsage.zero(), ...r.usage }), TokenUsage.zero()),
    costUsd: rounds.reduce((c, r) => c + r.costUsd, 0),
  });
  const askAgain = parsed.verdict === 'judged' && groupVerdict.verdict === 'judged' && groupVerdict.missing.length > 0;
  return { usage: response.usage, costUsd, cached: response.cached, askAgain };
}

/** The call itself: the run's response cache under the call key, the llm config's retry policy. */
async function askJudge(
  deps: WorkerDeps,
  cacheDir: string,
  endpoint: VisionEndpoint & { ready: true },
  request: ChatRequest,
  callKey: string,
): Promise<ChatResponse> {
  const provider = providerFor(deps, {
    provider: 'openai',
    baseUrl: endpoint.baseUrl,
    apiKey: endpoint.apiKey,
    requestTimeoutMs: endpoint.requestTimeoutMs,
    modelCapabilities: deps.config.llm.modelCapabilities,
  });
  return underRetryPolicy(deps.config.llm, () =>
    cachedComplete(provider, new ResponseCache(cacheDir), request, {
      callKey,
      signal: cancellationSignal(),
      payer: payerOfThisActivity(),
    }),
  );
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
    ...(endpoint.ready
      ? { model: endpoint.model, judge: v2JudgeSettingsOf(deps.config.visionJudge, input.judgeModel) }
      : {}),
  });
}
