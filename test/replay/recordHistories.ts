/**
 * Records real workflow histories as replay fixtures: `node --import tsx test/replay/recordHistories.ts [version]`.
 * Runs the single agent on two dev20 tasks and SheetCopilot on one (scripted model, real Temporal, sandbox, LibreOffice),
 * then writes each run and task workflow history (binary protobuf) to test/replay/histories/. Re-record when a change is meant to alter
 * workflow commands (and guard the change with `patched()` for runs already in flight).
 * `... recordHistories.ts conversation [version]`: the analysis benchmark on one request (pattern auto, scripted reference
 * model): its analysisTask workflow and the conversation workflow of its turn.
 * `... recordHistories.ts dsbench [version]`: DSBench model-only on the generated sample's first competition: the run
 * and its first dsbenchTask workflow. Both: v1 the done signal as a signal command, v2 from a local activity
 * (`patched('done-by-local-activity')`), v3 read by the run from the task's completion (workflows/run/runReport.ts), v4
 * the current generation ('dsbench-task-v4', 'analysis-task-v4': the request reaches its conversation as the child's input
 * and its turn comes back as the child's result).
 * `... recordHistories.ts standalone [version]`: a conversation as `serve` makes it: two turns (auto, then reflection) up
 * to v4; from v5 ('conversation-v2': a JIT answer's numbers are checked and may be revised once) a third turn, auto,
 * whose answer invents a number, so the revise step runs.
 * Conversation generations: v1–v4 of the `conversation` mode are the conversation before its marker (no grounding check);
 * v5 is 'conversation-v2' under the v4 analysis task; v6 'conversation-v3' (every answer stating numbers cross-checked by
 * a second, independently written program); v7 'conversation-v3' with the patch 'conversation-requested-output' (a
 * chart or table asked for and not saved is asked for once; standalone: a fourth turn, direct, asking for a bar chart).
 * `... recordHistories.ts handover [version]`: a run that continues as new with a slow task in flight (the server
 * suggests it after 60 events); the slow task is terminated once handed over, and the next execution's watch counts it.
 * Writes every execution of the run (`<version>-handover-run-<n>`).
 * `... recordHistories.ts sb2 [version]`: SpreadsheetBench 2's scaffold on one generated task (`<version>-sb2-run`,
 * `<version>-sb2-task-fm0`); from v2 also checked_vote on one (`<version>-sb2-checked-vote-task-tpl0`).
 * `... recordHistories.ts sb2vis [version]`: a SpreadsheetBench 2 Visualization task whose chart is judged by the vision
 * judge (generation `sb2-task-v2` with the patch `sb2-chart-judging`), run by the scaffold
 * (`<version>-sb2-judged-task-vis_bar`) and by checked_vote (`<version>-sb2-judged-checked-vote-task-vis_bar`).
 * `... recordHistories.ts sb2charts [version]`: the same generation and patch, checked_vote only, after its chart rule
 * and per-chart judging (both without a marker): candidates that only add the chart asked for, submitted and judged
 * (`<version>-sb2-charts-checked-vote-task-vis_bar`), and an output with two titled charts judged in one call per chart
 * the checklist names plus one for the rest (`<version>-sb2-charts-checked-vote-task-vis_two`).
 * `... recordHistories.ts batch [version]`: `run --batch` on two dev20 tasks (one batch): the run, task 39604, the
 * batch queue and the batch (`<version>-batch-*`).
 * `... recordHistories.ts budget [version]`: a run with a dollar budget whose last task's spend request is held behind
 * a reservation (test/helpers/heldSpendRequest.ts); from v10 ('benchmark-run-v10') the settle of that reservation
 * pauses the run, and a raised budget finishes it (`<version>-budget-run`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import proto from '@temporalio/proto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runToEnd, serveWith, startBenchmarkRun, startE2E } from '../helpers/e2e';
import { DEV20 } from '../helpers/datasets';
import { waitUntil } from '../helpers/wait';
import { devServerConfigSchema } from '../../config/schema';
import { loadAnalysisSuite } from '../../benchmarks/analysis/dataset';
import { requestConversationId } from '../../benchmarks/analysis/layout';
import { conversationWorkflowId } from '../../analysis/conversation/layout';
import { referenceAnalyst } from '../helpers/referenceAnalyst';
import type { Client } from '@temporalio/client';
import { DEV20_SOLUTIONS } from '../helpers/scriptedSolutions';
import { copilot797 } from '../agents/copilotScripts';
import { DSBENCH_SAMPLE_SCRIPT } from '../helpers/dsbenchScript';
import { startAnalysisEnv, waitForTurn } from '../helpers/analysis';
import { SALES_CSV, salesAnalyst } from '../helpers/analysisModel';
import { copyInputReply } from '../helpers/copyInput';
import { HELD_CAP_USD, HELD_CONCURRENCY, HELD_PRICE, heldRequestRules, PAUSES } from '../helpers/heldSpendRequest';
import { progressQuery, setBudgetUpdate } from '../../contracts/run';
import { scaffoldScript } from '../helpers/scaffoldScript';
import { generateVisualizationTasks, visualizationScript } from '../helpers/visualizationTasks';
import {
  chartOnlyCandidate,
  generateTwoChartsTask,
  passEveryAsked,
  twoChartsCandidate,
  VIS_BAR_CHART_SOLVE,
} from '../helpers/visualizationCharts';
import { runPython } from '../scoring/oracle';
import { batchQueueWorkflowId, batchWorkflowId } from '../../contracts/batch';

const OUT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'histories');
const MODE = [
  'conversation',
  'dsbench',
  'standalone',
  'handover',
  'budget',
  'sb2',
  'sb2vis',
  'sb2charts',
  'batch',
].includes(process.argv[2])
  ? process.argv[2]
  : 'spreadsheet';
/**
 * Fixture generation. Spreadsheet runs: v1 one child start per workflow task; v2 batched child starts; v3 task
 * workflows started by name, local bookkeeping activities, a solution's test cases in one activity, the Stage attribute
 * upserted when it changes; v4 a task's outputs recalculated in one activity; v5 scoring as a local activity (each
 * behind `patched()`); v6 all of these under one patch, the done signal from a local activity, no Stage upsert for
 * the local stages (workflows/spreadsheetbench/legacy/taskPaths.ts); v7 the run reads each task's done summary from its completion
 * (`patched('tasks-report-by-completion')`, workflows/run/taskCompletions.ts): the task sends nothing; v8 one marker
 * per workflow ('benchmark-run-v8', 'spreadsheet-task-v8', workflows/versions.ts) and the current code straight through,
 * older histories handed to the frozen legacy copies; v9 runs ('benchmark-run-v9') watch the tasks handed over to them
 * (tasks unchanged: their v9 fixtures are v8's generation); v10 runs ('benchmark-run-v10') look at held spend requests
 * when a reservation settles (tasks unchanged: v8's generation).
 */
/** The generations of workflows/versions.ts: spreadsheet runs v10 (tasks v8), DSBench v4, conversations (and their analysis task) v7. */
const VERSION =
  (MODE === 'spreadsheet' ? process.argv[2] : process.argv[3]) ??
  (
    {
      spreadsheet: 'v10',
      handover: 'v10',
      budget: 'v10',
      batch: 'v10',
      dsbench: 'v4',
      sb2: 'v2',
      sb2vis: 'v2',
      sb2charts: 'v2',
    } as Record<string, string>
  )[MODE] ??
  'v7';
const ANALYSIS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/analysis');
const DSBENCH_SAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/dsbench-sample');

async function writeHistory(client: Client, workflowId: string, name: string): Promise<void> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  writeFileSync(path.join(OUT, name), proto.temporal.api.history.v1.History.encode(history).finish());
  process.stdout.write(`${name}: ${history.events?.length} events\n`);
}

async function recordConversation(): Promise<void> {
  const suite = await loadAnalysisSuite(ANALYSIS);
  const env = await startE2E(
    { rules: [], fallback: referenceAnalyst(suite.dir, suite.tasks, '') },
    { config: { recalc: { engine: 'none' } } },
  );
  try {
    const run = await startBenchmarkRun(env, { dataset: ANALYSIS, agent: 'auto', tasks: ['a01'] });
    await runToEnd(env, run);
    const taskWorkflowId = `${run.runId}/task/a01`;
    await writeHistory(env.client, taskWorkflowId, `${VERSION}-analysis-task-a01.history.bin`);
    await writeHistory(
      env.client,
      conversationWorkflowId(requestConversationId(taskWorkflowId)),
      `${VERSION}-conversation-a01.history.bin`,
    );
  } finally {
    await env.close();
  }
}

async function recordDsbench(): Promise<void> {
  const env = await startE2E(DSBENCH_SAMPLE_SCRIPT, { config: { recalc: { engine: 'none' } } });
  try {
    const run = await startBenchmarkRun(env, { dataset: DSBENCH_SAMPLE, agent: 'model-only', limit: 1 });
    await runToEnd(env, run);
    const history = await env.client.workflow.getHandle(run.runId).fetchHistory();
    const child = history.events?.find(
      (e) => e.childWorkflowExecutionStartedEventAttributes,
    )?.childWorkflowExecutionStartedEventAttributes;
    if (!child?.workflowExecution?.workflowId) throw new Error('the DSBench run started no task workflow');
    await writeHistory(env.client, run.runId, `${VERSION}-dsbench-run.history.bin`);
    await writeHistory(env.client, child.workflowExecution.workflowId, `${VERSION}-dsbench-task.history.bin`);
  } finally {
    await env.close();
  }
}

/**
 * SpreadsheetBench 2 with the paper's scaffold on one generated task (fm0: its first reply has no tool call and is
 * requeried, then five turns): the run and the task (`<version>-sb2-run`, `<version>-sb2-task-fm0`). From v2
 * ('sb2-task-v2': the input and answer recalculated first) also checked_vote on tpl0 through its adapter (its first
 * candidate crashes, is repaired, and a second agrees): `<version>-sb2-checked-vote-task-tpl0`.
 */
async function recordSpreadsheetBench2(): Promise<void> {
  const tmp = mkdtempSync(path.join(tmpdir(), 'sb2-record-'));
  runPython([path.resolve('test/spreadsheetbench2/fixtures/make_v2_tasks.py'), tmp], '');
  process.env.XDG_CACHE_HOME = path.join(tmp, 'xdg-cache'); // recalculated copies: not into the user's cache
  const scaffold = scaffoldScript({ answerPath: '/nonexistent', repoDir: '/nonexistent', hostUrl: '' });
  const env = await startE2E({ ...scaffold, rules: [...scaffold.rules, ...checkedVoteTpl0Rules] });
  try {
    const dataset = path.join(tmp, 'data');
    const run = await startBenchmarkRun(env, { dataset, agent: 'swe_agent', tasks: ['fm0'] });
    await runToEnd(env, run);
    await writeHistory(env.client, run.runId, `${VERSION}-sb2-run.history.bin`);
    await writeHistory(env.client, `${run.runId}/task/fm0`, `${VERSION}-sb2-task-fm0.history.bin`);
    if (VERSION !== 'v1') {
      const cv = await startBenchmarkRun(env, { dataset, agent: 'checked_vote', tasks: ['tpl0'] });
      await runToEnd(env, cv);
      await writeHistory(env.client, `${cv.runId}/task/tpl0`, `${VERSION}-sb2-checked-vote-task-tpl0.history.bin`);
    }
  } finally {
    await env.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * A Visualization task judged on its chart, by each agent (`<version>-sb2-judged-task-vis_bar`,
 * `<version>-sb2-judged-checked-vote-task-vis_bar`): export, the vision call, scoring.
 */
async function recordSpreadsheetBench2Judging(): Promise<void> {
  const tmp = mkdtempSync(path.join(tmpdir(), 'sb2vis-record-'));
  const data = path.join(tmp, 'Visualization');
  generateVisualizationTasks(data);
  process.env.XDG_CACHE_HOME = path.join(tmp, 'xdg-cache'); // recalculated copies: not into the user's cache
  process.env.SB2VIS_RECORD_KEY = 'not-secret';
  const script = visualizationScript(() => '{"pass_ids": [1, 2, 3], "fail": []}');
  const env = await startE2E(
    { ...script, rules: [...script.rules, checkedVoteVisBarRule] },
    {
      config: { visionJudge: { baseUrl: 'set below', model: 'scripted-vision', apiKeyEnv: 'SB2VIS_RECORD_KEY' } },
    },
  );
  env.config.visionJudge.baseUrl = env.llm.url;
  try {
    const run = await startBenchmarkRun(env, { dataset: data, agent: 'swe_agent', tasks: ['vis_bar'] });
    await runToEnd(env, run);
    await writeHistory(env.client, `${run.runId}/task/vis_bar`, `${VERSION}-sb2-judged-task-vis_bar.history.bin`);
    const cv = await startBenchmarkRun(env, { dataset: data, agent: 'checked_vote', tasks: ['vis_bar'] });
    await runToEnd(env, cv);
    const name = `${VERSION}-sb2-judged-checked-vote-task-vis_bar.history.bin`;
    await writeHistory(env.client, `${cv.runId}/task/vis_bar`, name);
  } finally {
    await env.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * checked_vote on Visualization tasks as it runs now (`<version>-sb2-charts-checked-vote-task-vis_bar`, `…-vis_two`):
 * candidates that only draw the charts asked for pass its checks and are submitted; vis_two's two titled charts are
 * judged in three calls (each named chart alone, then both for the item naming none).
 */
async function recordSpreadsheetBench2ChartRuns(): Promise<void> {
  const tmp = mkdtempSync(path.join(tmpdir(), 'sb2charts-record-'));
  const bar = path.join(tmp, 'bar', 'Visualization');
  const two = path.join(tmp, 'two', 'Visualization');
  generateVisualizationTasks(bar);
  generateTwoChartsTask(two);
  process.env.XDG_CACHE_HOME = path.join(tmp, 'xdg-cache'); // recalculated copies: not into the user's cache
  process.env.SB2VIS_RECORD_KEY = 'not-secret';
  const script = visualizationScript(passEveryAsked);
  const env = await startE2E(
    { ...script, rules: [...script.rules, chartOnlyCandidate, twoChartsCandidate] },
    {
      config: { visionJudge: { baseUrl: 'set below', model: 'scripted-vision', apiKeyEnv: 'SB2VIS_RECORD_KEY' } },
    },
  );
  env.config.visionJudge.baseUrl = env.llm.url;
  try {
    for (const [dataset, task] of [
      [bar, 'vis_bar'],
      [two, 'vis_two'],
    ] as const) {
      const run = await startBenchmarkRun(env, { dataset, agent: 'checked_vote', tasks: [task] });
      await runToEnd(env, run);
      const name = `${VERSION}-sb2-charts-checked-vote-task-${task}.history.bin`;
      await writeHistory(env.client, `${run.runId}/task/${task}`, name);
    }
  } finally {
    await env.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * checked_vote's candidates on vis_bar: each adds the bar chart and renames A1 (a candidate leaving the answer region
 * as the input had it fails checked_vote's `unchanged` check and nothing is submitted; a formula candidate's reply is
 * no formula).
 */
const checkedVoteVisBarRule = {
  name: 'vis_bar-checked-vote',
  match: { callKey: /\/vis_bar\/(cand|formula)-\d\/\d$/ },
  reply: ['```python', ...VIS_BAR_CHART_SOLVE, "    ws['A1'] = 'row 1'", '```'].join('\n'),
};

/** checked_vote's candidates on tpl0: the first crashes, its repair and the second candidate solve it. */
const checkedVoteTpl0Rules = [
  {
    name: 'tpl0-crash',
    match: { callKey: /\/tpl0\/cand-1\/0$/ },
    reply: "```python\ndef solve(wb):\n    raise ValueError('not yet')\n```",
  },
  {
    name: 'tpl0',
    match: { callKey: /\/tpl0\/cand-\d\/\d$/ },
    reply: "```python\ndef solve(wb):\n    ws = wb['Template']\n    ws['B2'] = 91.5\n    ws['B3'] = 'N/A'\n```",
  },
];

/** A conversation as `serve` makes it (turns above): created, a file uploaded, messages sent by update. */
async function recordStandaloneConversation(): Promise<void> {
  const a = await startAnalysisEnv(salesAnalyst);
  const turns: Array<readonly [string, 'reflection' | 'direct' | undefined]> = [
    ['What is the total amount in sales.csv? [JIT:plan_execute]', undefined],
    ['Once more, with the reflection pattern.', 'reflection'],
    ['And how did it change? [INVENT] [JIT:react]', undefined],
    // From v7: a bar chart asked for and never saved (the scripted analyst prints): asked for once.
    ...(Number(VERSION.slice(1)) >= 7 ? [['Make a bar chart of the total amount by region.', 'direct'] as const] : []),
  ];
  try {
    const svc = a.server.service;
    const conv = await svc.create({ title: 'recorded', pattern: 'auto' });
    await svc.upload(conv.id, [{ name: 'sales.csv', data: Buffer.from(SALES_CSV) }]);
    for (const [text, pattern] of turns) {
      const { turnId } = await svc.send(conv.id, { text, ...(pattern ? { pattern } : {}) });
      await waitForTurn(a, conv.id, turnId, 300_000);
    }
    await svc.close(conv.id);
    await writeHistory(a.env.client, svc.workflowId(conv.id), `${VERSION}-standalone-conversation.history.bin`);
  } finally {
    await a.close();
  }
}

async function recordHandOver(): Promise<void> {
  const slow = '57105';
  const env = await startE2E(
    {
      rules: [
        ...Object.values(DEV20_SOLUTIONS),
        { name: 'slow', match: { anyMessage: new RegExp(`spreadsheet/${slow}/`) }, reply: 'no code', delayMs: 120_000 },
      ],
      fallback: 'No code this time.',
    },
    {
      config: { recalc: { engine: 'none' }, run: { concurrency: 4 } },
      devServer: {
        tuning: devServerConfigSchema.parse({ dynamicConfig: { 'limit.historyCount.suggestContinueAsNew': 60 } }),
      },
    },
  );
  const serving = await serveWith(env);
  try {
    const run = await startBenchmarkRun(env, {
      dataset: DEV20,
      tasks: [slow, '57232', '18645', '39604', '17251', '50066', '59259', '38985', '54057'],
    });
    const slowHandle = env.client.workflow.getHandle(`${run.runId}/task/${slow}`);
    await waitUntil(
      async () => {
        const events = (await slowHandle.fetchHistory().catch(() => ({ events: [] }))).events ?? [];
        return events.some((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'handOver');
      },
      120_000,
      'the slow task to be handed over',
    );
    await slowHandle.terminate('recording: a handed-over task ends without a result');
    await run.handle.result();
    let n = 0;
    for await (const info of env.client.workflow.list({ query: `WorkflowId="${run.runId}"` })) {
      const history = await env.client.workflow.getHandle(run.runId, info.runId).fetchHistory();
      const name = `${VERSION}-handover-run-${++n}.history.bin`;
      writeFileSync(path.join(OUT, name), proto.temporal.api.history.v1.History.encode(history).finish());
      process.stdout.write(`${name}: ${history.events?.length} events\n`);
    }
  } finally {
    await serving.stop();
    await env.close();
  }
}

async function recordBudget(): Promise<void> {
  const env = await startE2E(
    { rules: heldRequestRules(PAUSES, true), fallback: copyInputReply },
    {
      config: {
        run: { concurrency: HELD_CONCURRENCY, budgetUsd: HELD_CAP_USD },
        llm: { prices: { 'scripted-model': HELD_PRICE } },
        recalc: { engine: 'none' },
      },
    },
  );
  const serving = await serveWith(env);
  try {
    const run = await startBenchmarkRun(env, { dataset: DEV20, tasks: PAUSES });
    await waitUntil(
      async () => {
        const p = await run.handle.query(progressQuery);
        return p.paused && p.done === PAUSES.length - 1;
      },
      180_000,
      'the run to pause with its last request held',
    );
    await run.handle.executeUpdate(setBudgetUpdate, { args: [{ usd: 1 }] });
    await run.handle.result();
    await writeHistory(env.client, run.runId, `${VERSION}-budget-run.history.bin`);
  } finally {
    await serving.stop();
    await env.close();
  }
}

/**
 * `run --batch` on two dev20 tasks in one batch: the run, a task that waited for its batch, the run's batch queue and
 * the batch workflow (`<version>-batch-*`; no marker: the batch workflows are new, and a task's wait issues commands
 * only in batch runs).
 */
async function recordBatch(): Promise<void> {
  const env = await startE2E(
    { rules: Object.values(DEV20_SOLUTIONS), batch: { delayMs: 1_000 } },
    {
      config: {
        llm: { model: 'gpt-4o-mini', batch: { maxRequests: 2, windowMs: 600_000, pollIntervalMs: 300 } },
        recalc: { engine: 'none' },
      },
    },
  );
  try {
    const run = await startBenchmarkRun(env, { dataset: DEV20, tasks: ['39604', '79-7'], batch: true });
    await runToEnd(env, run);
    const ids: [string, string][] = [
      [run.runId, 'batch-run'],
      [`${run.runId}/task/39604`, 'batch-task-39604'],
      [batchQueueWorkflowId(run.runId), 'batch-queue'],
      [batchWorkflowId(run.runId, 'b0001'), 'batch-b0001'],
    ];
    for (const [id, name] of ids) await writeHistory(env.client, id, `${VERSION}-${name}.history.bin`);
  } finally {
    await env.close();
  }
}

async function main(): Promise<void> {
  if (MODE === 'batch') return recordBatch();
  if (MODE === 'budget') return recordBudget();
  if (MODE === 'handover') return recordHandOver();
  if (MODE === 'conversation') return recordConversation();
  if (MODE === 'standalone') return recordStandaloneConversation();
  if (MODE === 'dsbench') return recordDsbench();
  if (MODE === 'sb2') return recordSpreadsheetBench2();
  if (MODE === 'sb2vis') return recordSpreadsheetBench2Judging();
  if (MODE === 'sb2charts') return recordSpreadsheetBench2ChartRuns();
  const env = await startE2E({ rules: [...copilot797(), ...Object.values(DEV20_SOLUTIONS)] });
  try {
    for (const [agent, tasks] of [
      ['single', ['39604', '599-9']],
      ['sheetcopilot', ['79-7']],
    ] as const) {
      const run = await startBenchmarkRun(env, { dataset: DEV20, agent, tasks: [...tasks] });
      await runToEnd(env, run);
      const ids = [run.runId, ...tasks.map((t) => `${run.runId}/task/${t}`)];
      for (const id of ids)
        await writeHistory(
          env.client,
          id,
          `${VERSION}-${agent}-${id === run.runId ? 'run' : `task-${id.split('/').pop()}`}.history.bin`,
        );
    }
  } finally {
    await env.close();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : err}\n`);
  process.exit(1);
});
