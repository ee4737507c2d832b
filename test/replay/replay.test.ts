import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Worker } from '@temporalio/worker';
import proto from '@temporalio/proto';
import { workflowBundle } from '../../workers/workflowBundle';
import { CURRENT } from '../../workflows/versions';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'histories');
const events = (f: string) =>
  proto.temporal.api.history.v1.History.decode(readFileSync(path.join(DIR, f))).events ?? [];
const patchIds = (f: string) =>
  events(f).flatMap((e) => {
    const data = e.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0]?.data;
    return data ? [(JSON.parse(Buffer.from(data).toString()) as { id: string }).id] : [];
  });
const activityTypes = (f: string) =>
  events(f).flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
const localActivityTypesOf = (f: string) =>
  events(f).flatMap((e) => {
    const data =
      e.markerRecordedEventAttributes?.markerName === 'core_local_activity'
        ? e.markerRecordedEventAttributes.details?.data?.payloads?.[0]?.data
        : undefined;
    return data ? [(JSON.parse(Buffer.from(data).toString()) as { activity_type: string }).activity_type] : [];
  });

/**
 * Recorded histories of real runs (test/replay/recordHistories.ts) must replay on the current workflow code without
 * determinism errors: a run in flight during a deploy would otherwise get stuck.
 */
describe('recorded workflow histories replay on the current code', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.history.bin'));

  it('has histories of run and task workflows for the single agent and SheetCopilot, from each workflow version, and of the analysis and DSBench benchmarks', () => {
    const names = [
      'sheetcopilot-run',
      'sheetcopilot-task-79-7',
      'single-run',
      'single-task-39604',
      'single-task-599-9',
    ];
    const others = ['v1', 'v2', 'v3', 'v4'].flatMap((v) =>
      ['analysis-task-a01', 'conversation-a01', 'dsbench-run', 'dsbench-task'].map((n) => `${v}-${n}.history.bin`),
    );
    // Recorded by the code as it was just before the layout move (688f6cf): a multi-round run with kernel sessions, and
    // a conversation of two turns (auto, then reflection) as `serve` makes one.
    const beforeLayout = [
      'pre-layout-conversation',
      'pre-layout-row-exec-run',
      'pre-layout-row-exec-task-39604',
      'v4-standalone-conversation',
    ].map((n) => `${n}.history.bin`);
    // Conversations of the 'conversation-v2' generation: under an analysis task, and as `serve` makes one.
    const conversationV2 = ['v5-analysis-task-a01', 'v5-conversation-a01', 'v5-standalone-conversation'].map(
      (n) => `${n}.history.bin`,
    );
    // Conversations of the 'conversation-v3' generation (the second program's cross-check), as v2's.
    const conversationV3 = ['v6-analysis-task-a01', 'v6-conversation-a01', 'v6-standalone-conversation'].map(
      (n) => `${n}.history.bin`,
    );
    // 'conversation-v3' with the patch 'conversation-requested-output' (a chart or table asked for and not saved).
    const requestedOutput = ['v7-analysis-task-a01', 'v7-conversation-a01', 'v7-standalone-conversation'].map(
      (n) => `${n}.history.bin`,
    );
    // v9: both executions of a run that continued as new with a task in flight (handed over, then terminated).
    const handOver = ['v9-handover-run-1.history.bin', 'v9-handover-run-2.history.bin'];
    // v10: a budgeted run whose last task's spend request was held behind a reservation, paused when it settled.
    const heldRequest = ['v10-budget-run.history.bin'];
    // SpreadsheetBench 2 with the paper's scaffold: a run and its task of each generation; from v2 ('sb2-task-v2': the
    // input and answer recalculated first) also a task run by checked_vote through its adapter.
    const spreadsheetBench2 = [
      'v1-sb2-run.history.bin',
      'v1-sb2-task-fm0.history.bin',
      'v2-sb2-run.history.bin',
      'v2-sb2-task-fm0.history.bin',
      'v2-sb2-checked-vote-task-tpl0.history.bin',
    ];
    // A SpreadsheetBench 2 Visualization task judged on its chart (generation 'sb2-task-v2', patch 'sb2-chart-judging').
    // Each agent: the scaffold and checked_vote through its adapter.
    const chartJudging = [
      'v2-sb2-judged-task-vis_bar.history.bin',
      'v2-sb2-judged-checked-vote-task-vis_bar.history.bin',
      // checked_vote after its chart rule and per-chart judging (no marker): chart-only candidates; two charts.
      'v2-sb2-charts-checked-vote-task-vis_bar.history.bin',
      'v2-sb2-charts-checked-vote-task-vis_two.history.bin',
    ];
    // run --batch: the run, a task that waited for its batch, the run's batch queue and its batch workflow.
    const batch = ['batch-run', 'batch-task-39604', 'batch-queue', 'batch-b0001'].map((n) => `v10-${n}.history.bin`);
    expect(files.sort()).toEqual(
      [
        ...others,
        ...spreadsheetBench2,
        ...chartJudging,
        ...beforeLayout,
        ...conversationV2,
        ...conversationV3,
        ...requestedOutput,
        ...handOver,
        ...heldRequest,
        ...batch,
        ...['v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7', 'v8', 'v9', 'v10'].flatMap((v) =>
          names.map((n) => `${v}-${n}.history.bin`),
        ),
      ].sort(),
    );
  });

  it('covers the patched paths: v3 task workflows use local bookkeeping and run the test cases in one activity, v4 ones recalculate in one activity, v5 ones score in a local activity, v6 ones take all under one patch and report by local activity, v7 runs read their tasks by completion; v3 and DSBench runs start tasks by name', () => {
    const patches = patchIds;
    const activities = activityTypes;
    const localActivities = (f: string) =>
      events(f).filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length;
    for (const task of ['v3-single-task-39604', 'v3-single-task-599-9', 'v3-sheetcopilot-task-79-7'].map(
      (n) => `${n}.history.bin`,
    )) {
      expect(patches(task), task).toEqual(['local-bookkeeping', 'test-cases-in-one-activity']);
      expect(localActivities(task), task).toBeGreaterThan(0);
      expect(activities(task), task).not.toContain('prepareTask');
    }
    // SheetCopilot runs every test case inside its own final stage; the single agent leaves them all to the batch.
    for (const task of ['v3-single-task-39604.history.bin', 'v3-single-task-599-9.history.bin']) {
      expect(
        activities(task).filter((a) => a === 'executeOnTestCases'),
        task,
      ).toHaveLength(1);
      expect(activities(task), task).not.toContain('executeSolution');
    }
    for (const run of ['v3-single-run.history.bin', 'v3-sheetcopilot-run.history.bin', 'v1-dsbench-run.history.bin']) {
      expect(patches(run), run).toEqual(['batched-child-starts', 'task-workflow-by-name']);
    }
    // v4: a task's outputs recalculated in one activity; v3 still took one activity per output.
    for (const task of ['v4-single-task-39604.history.bin', 'v4-single-task-599-9.history.bin']) {
      expect(patches(task), task).toEqual([
        'local-bookkeeping',
        'test-cases-in-one-activity',
        'recalc-in-one-activity',
      ]);
      expect(
        activities(task).filter((a) => a.startsWith('recalc')),
        task,
      ).toEqual(['recalcWorkbooks']);
    }
    expect(activities('v3-single-task-39604.history.bin').filter((a) => a.startsWith('recalc'))).toEqual([
      'recalcWorkbook',
      'recalcWorkbook',
      'recalcWorkbook',
    ]);
    // v5: scoring runs as a local activity (SheetCopilot too); v4 still scheduled it as an activity.
    const localActivityTypes = localActivityTypesOf;
    for (const task of ['v5-single-task-39604', 'v5-single-task-599-9', 'v5-sheetcopilot-task-79-7'].map(
      (n) => `${n}.history.bin`,
    )) {
      expect(patches(task), task).toContain('local-scoring');
      expect(localActivityTypes(task), task).toContain('scoreTask');
      expect(activities(task), task).not.toContain('scoreTask');
    }
    expect(activities('v4-single-task-39604.history.bin')).toContain('scoreTask');
    // v6: one patch marker for all of it; the done signal goes out from a local activity, not as a signal command; the
    // single agent opened no kernel session, so none is closed; v5 still signalled by command and closed sessions.
    const signalCommands = (f: string) =>
      events(f).filter((e) => e.signalExternalWorkflowExecutionInitiatedEventAttributes?.signalName === 'taskDone')
        .length;
    for (const task of ['v6-single-task-39604', 'v6-single-task-599-9', 'v6-sheetcopilot-task-79-7'].map(
      (n) => `${n}.history.bin`,
    )) {
      expect(patches(task), task).toEqual(['task-paths-v6']);
      expect(localActivityTypes(task).slice(-3), task).toEqual(['scoreTask', 'recordTaskResult', 'reportTaskDone']);
      expect(signalCommands(task), task).toBe(0);
    }
    // Nor are the outputs listed by a local activity: they come with the prepared task.
    expect(localActivityTypes('v6-single-task-39604.history.bin')).toEqual([
      'prepareTask',
      'scoreTask',
      'recordTaskResult',
      'reportTaskDone',
    ]);
    expect(localActivityTypes('v5-single-task-39604.history.bin')).toEqual(
      expect.arrayContaining(['closeSessions', 'outputPaths']),
    );
    expect(signalCommands('v5-single-task-39604.history.bin')).toBe(1);
    // DSBench and analysis tasks: v2 reports by local activity behind its own patch, v1 by signal command.
    for (const task of ['dsbench-task', 'analysis-task-a01']) {
      expect(patches(`v2-${task}.history.bin`), task).toContain('done-by-local-activity');
      expect(localActivityTypes(`v2-${task}.history.bin`), task).toEqual(['reportTaskDone']);
      expect(signalCommands(`v2-${task}.history.bin`), task).toBe(0);
      expect(signalCommands(`v1-${task}.history.bin`), task).toBe(1);
    }
    // v7 runs (and v3 DSBench and analysis tasks): the run reads each task's summary from its completion; the task
    // sends nothing, and the run gets no taskDone signal.
    const doneSignals = (f: string) =>
      events(f).filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'taskDone').length;
    const childCompletions = (f: string) =>
      events(f).filter((e) => e.childWorkflowExecutionCompletedEventAttributes).length;
    for (const run of ['v7-single-run', 'v7-sheetcopilot-run', 'v3-dsbench-run'].map((n) => `${n}.history.bin`)) {
      expect(patches(run), run).toContain('tasks-report-by-completion');
      expect(doneSignals(run), run).toBe(0);
      expect(childCompletions(run), run).toBeGreaterThan(0);
    }
    expect(doneSignals('v6-single-run.history.bin')).toBe(2);
    expect(localActivityTypes('v7-single-task-39604.history.bin')).toEqual([
      'prepareTask',
      'scoreTask',
      'recordTaskResult',
    ]);
    expect(localActivityTypes('v7-sheetcopilot-task-79-7.history.bin')).not.toContain('reportTaskDone');
    for (const task of ['dsbench-task', 'analysis-task-a01'])
      expect(localActivityTypes(`v3-${task}.history.bin`), task).toEqual([]);
    const started = (f: string) =>
      events(f).flatMap((e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowType?.name ?? []);
    expect(started('v1-dsbench-run.history.bin')).toEqual(['dsbenchTask']);
    expect(events('v1-dsbench-task.history.bin')[0].workflowExecutionStartedEventAttributes?.workflowType?.name).toBe(
      'dsbenchTask',
    );
  });

  it("current generations (workflows/versions.ts) record one marker each and take the newest paths; the analysis task gets its turn as its child conversation's result", () => {
    for (const [file, marker] of [
      ['v8-single-run', 'benchmark-run-v8'],
      ['v8-sheetcopilot-run', 'benchmark-run-v8'],
      ['v9-single-run', 'benchmark-run-v9'],
      ['v9-sheetcopilot-run', 'benchmark-run-v9'],
      ['v10-single-run', 'benchmark-run-v10'],
      ['v10-sheetcopilot-run', 'benchmark-run-v10'],
      ['v10-budget-run', 'benchmark-run-v10'],
      ['v10-single-task-39604', 'spreadsheet-task-v8'],
      ['v9-single-task-39604', 'spreadsheet-task-v8'],
      ['v8-single-task-39604', 'spreadsheet-task-v8'],
      ['v8-sheetcopilot-task-79-7', 'spreadsheet-task-v8'],
      ['v4-dsbench-task', 'dsbench-task-v4'],
      ['v4-analysis-task-a01', 'analysis-task-v4'],
      ['v5-analysis-task-a01', 'analysis-task-v4'],
      ['v5-conversation-a01', 'conversation-v2'],
      ['v5-standalone-conversation', 'conversation-v2'],
      ['v2-sb2-task-fm0', 'sb2-task-v2'],
      ['v6-analysis-task-a01', 'analysis-task-v4'],
      ['v6-conversation-a01', 'conversation-v3'],
      ['v6-standalone-conversation', 'conversation-v3'],
      ['v7-analysis-task-a01', 'analysis-task-v4'],
    ])
      expect(patchIds(`${file}.history.bin`), file).toEqual([marker]);
    for (const file of ['v7-conversation-a01', 'v7-standalone-conversation'])
      expect(patchIds(`${file}.history.bin`), file).toEqual(['conversation-v3', 'conversation-requested-output']);
    // checked_vote records its own marker too (the agent's, shared with SpreadsheetBench's task workflow).
    expect(patchIds('v2-sb2-checked-vote-task-tpl0.history.bin')).toEqual([
      'sb2-task-v2',
      'checked-vote-formula-candidates',
    ]);
    // SpreadsheetBench 2 v2: the input and answer recalculated on the recalc queue before anything else (v1: never);
    // checked_vote's task runs SpreadsheetBench's candidate activities in between its adapter's.
    expect(activityTypes('v2-sb2-task-fm0.history.bin')[0]).toBe('v2RecalculatedCopies');
    expect(activityTypes('v1-sb2-task-fm0.history.bin')).not.toContain('v2RecalculatedCopies');
    expect(activityTypes('v2-sb2-task-fm0.history.bin').slice(1)).toEqual(activityTypes('v1-sb2-task-fm0.history.bin'));
    expect(activityTypes('v2-sb2-checked-vote-task-tpl0.history.bin')).toEqual([
      'v2RecalculatedCopies',
      'prepareV2CheckedVote',
      'checkedVoteView',
      // cand-1.0 crashed: no output to recalculate; its repair (cand-1.1) and cand-2.0 agree.
      'checkedVoteAsk',
      'executeOnTestCases',
      'checkedVoteCheck',
      'checkedVoteAsk',
      'executeOnTestCases',
      'recalcWorkbooks',
      'checkedVoteCheck',
      'checkedVoteAsk',
      'executeOnTestCases',
      'recalcWorkbooks',
      'checkedVoteCheck',
      'checkedVoteChoose',
      'collectV2CheckedVoteOutput',
      'recalcWorkbooks',
      'scoreAndRecordV2Task',
    ]);
    // A v8 task takes v7's commands: the outputs recalculated in one activity, scoring and records local, nothing signalled.
    expect(activityTypes('v8-single-task-39604.history.bin')).toEqual(
      activityTypes('v7-single-task-39604.history.bin'),
    );
    expect(localActivityTypesOf('v8-single-task-39604.history.bin')).toEqual([
      'prepareTask',
      'scoreTask',
      'recordTaskResult',
    ]);
    // The run reads its tasks by completion, by type name.
    expect(
      events('v8-single-run.history.bin').filter(
        (e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'taskDone',
      ),
    ).toHaveLength(0);
    // v9: a run with no task handed over takes v8's commands; the execution that got one watches it (and it was terminated).
    expect(activityTypes('v9-single-run.history.bin')).toEqual(activityTypes('v8-single-run.history.bin'));
    const handOver = ['v9-handover-run-1.history.bin', 'v9-handover-run-2.history.bin'];
    for (const f of handOver) expect(patchIds(f), f).toEqual(['benchmark-run-v9']);
    expect(handOver.map((f) => activityTypes(f).filter((a) => a === 'watchHandedOverTasks').length).sort()).toEqual([
      0, 1,
    ]);
    // v10: a run without a budget takes v9's commands. The settle that left the held request past the budget paused
    // the run in the same workflow task (its status upserted before anything else); the held request was granted only
    // after the budget update raised the cap.
    expect(activityTypes('v10-single-run.history.bin')).toEqual(activityTypes('v9-single-run.history.bin'));
    const held = events('v10-budget-run.history.bin');
    const raised = held.findIndex((e) => e.workflowExecutionUpdateAcceptedEventAttributes);
    const settles = held.flatMap((e, i) =>
      e.workflowExecutionSignaledEventAttributes?.signalName === 'spendSettle' && i < raised ? [i] : [],
    );
    const workflowTaskEvent = (i: number) =>
      Boolean(
        held[i].workflowTaskScheduledEventAttributes ||
        held[i].workflowTaskStartedEventAttributes ||
        held[i].workflowTaskCompletedEventAttributes,
      );
    let next = settles[settles.length - 1] + 1;
    while (next < held.length && workflowTaskEvent(next)) next++;
    const afterLastSettle = held[next];
    expect(settles).toHaveLength(3);
    expect(
      Object.keys(
        afterLastSettle?.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields ?? {},
      ),
    ).toEqual(['BenchStatus']);
    const grants = held.flatMap((e, i) =>
      e.signalExternalWorkflowExecutionInitiatedEventAttributes?.signalName === 'spendGrant' ? [i] : [],
    );
    expect(grants).toHaveLength(4);
    expect(grants[3]).toBeGreaterThan(raised);
    expect(
      events('v4-dsbench-run.history.bin').flatMap(
        (e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowType?.name ?? [],
      ),
    ).toEqual(['dsbenchTask']);
    // No activity sends the request or polls the event log: the request is the child's input, the turn its result.
    expect(activityTypes('v4-analysis-task-a01.history.bin')).toEqual([
      'prepareAnalysisRequest',
      'recordAnalysisResult',
    ]);
    expect(activityTypes('v3-analysis-task-a01.history.bin')).toEqual(
      expect.arrayContaining(['sendAnalysisRequest', 'awaitAnalysisTurn']),
    );
    expect(
      events('v4-analysis-task-a01.history.bin').some((e) => e.childWorkflowExecutionCompletedEventAttributes),
    ).toBe(true);
    expect(
      events('v4-conversation-a01.history.bin').some(
        (e) => e.workflowExecutionUpdateAcceptedEventAttributes || e.workflowExecutionSignaledEventAttributes,
      ),
    ).toBe(false);
    expect(events('v4-analysis-task-a01.history.bin').length).toBeLessThan(
      events('v3-analysis-task-a01.history.bin').length,
    );
  });

  it('has a conversation turn (pattern auto: the sendMessage update, model steps, a tool call, the end of the turn) under its analysis task', () => {
    const activities = activityTypes;
    expect(activities('v1-conversation-a01.history.bin')).toEqual(
      expect.arrayContaining(['conversationModelStep', 'conversationToolCall', 'conversationFinishTurn']),
    );
    expect(
      events('v1-conversation-a01.history.bin').some((e) => e.workflowExecutionUpdateAcceptedEventAttributes),
    ).toBe(true);
    expect(
      events('v1-analysis-task-a01.history.bin').some(
        (e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowType?.name === 'conversation',
      ),
    ).toBe(true);
  });

  it("conversation-v2 checks a JIT answer's numbers, and asks once for a revision when one is not found; older conversations never check", () => {
    const checks = (f: string) => activityTypes(f).filter((a) => a === 'conversationCheckGrounding').length;
    expect(checks('v5-conversation-a01.history.bin')).toBe(1);
    // Three turns: auto (grounded), reflection (not checked), auto with an invented number (checked, then revised).
    expect(checks('v5-standalone-conversation.history.bin')).toBe(2);
    const steps = activityTypes('v5-standalone-conversation.history.bin');
    const lastCheck = steps.lastIndexOf('conversationCheckGrounding');
    expect(steps.slice(lastCheck + 1)).toEqual([
      'conversationModelStep',
      'conversationToolCall',
      'conversationModelStep',
      'conversationFinishTurn',
      'conversationDispose',
    ]);
    for (const f of ['v4-conversation-a01', 'v4-standalone-conversation', 'pre-layout-conversation'].map(
      (n) => `${n}.history.bin`,
    )) {
      expect(patchIds(f), f).toEqual([]);
      expect(checks(f), f).toBe(0);
    }
  });

  it('conversation-v3 cross-checks an answer stating numbers with a second program; v2 conversations never do', () => {
    const count = (f: string, type: string) => activityTypes(f).filter((a) => a === type).length;
    // One turn (a01, auto): the answer states the total, a second program computes it again, one comparison.
    expect(count('v6-conversation-a01.history.bin', 'conversationCrossCheckNeeded')).toBe(1);
    expect(count('v6-conversation-a01.history.bin', 'conversationCrossCheck')).toBe(1);
    // Three turns, each answer stating numbers: each is cross-checked.
    expect(count('v6-standalone-conversation.history.bin', 'conversationCrossCheckNeeded')).toBe(3);
    expect(count('v6-standalone-conversation.history.bin', 'conversationCrossCheck')).toBeGreaterThanOrEqual(3);
    for (const f of ['v5-conversation-a01', 'v5-standalone-conversation'].map((n) => `${n}.history.bin`)) {
      expect(count(f, 'conversationCrossCheckNeeded'), f).toBe(0);
      expect(count(f, 'conversationCrossCheck'), f).toBe(0);
    }
  });

  it('conversation-requested-output asks each turn whether the chart or table asked for was saved, and for it once when not; v6 conversations never do', () => {
    const types = (f: string) => activityTypes(`${f}.history.bin`);
    const count = (f: string, type: string) => types(f).filter((a) => a === type).length;
    expect(count('v7-conversation-a01', 'conversationRequestedOutput')).toBe(1);
    // Four turns; the fourth (direct) asks for a bar chart the scripted analyst never saves: one more model step.
    const standalone = types('v7-standalone-conversation');
    expect(count('v7-standalone-conversation', 'conversationRequestedOutput')).toBe(4);
    const asked = standalone.lastIndexOf('conversationRequestedOutput');
    expect(standalone.slice(asked + 1, asked + 3)).toEqual(['conversationModelStep', 'conversationToolCall']);
    for (const f of ['v6-conversation-a01', 'v6-standalone-conversation'])
      expect(count(f, 'conversationRequestedOutput'), f).toBe(0);
  });

  it("covers the SpreadsheetBench 2 scaffold's paths: a requeried reply, model calls and shell steps, the output's recalculation and scoring", () => {
    const f = 'v1-sb2-task-fm0.history.bin';
    expect(events(f)[0].workflowExecutionStartedEventAttributes?.workflowType?.name).toBe('spreadsheetBench2Task');
    expect(activityTypes(f)).toEqual([
      'prepareV2Episode',
      'v2ScaffoldModelCall',
      ...['view_xlsx', 'write', 'cd', 'run', 'submit'].flatMap(() => ['v2ScaffoldModelCall', 'v2ScaffoldShellStep']),
      'collectV2Output',
      'recalcWorkbooks',
      'removeV2WorkDir',
      'scoreAndRecordV2Task',
    ]);
  });

  it("covers SpreadsheetBench 2's chart judging: under its patch, the charts prepared and judged after recalculation", () => {
    const f = 'v2-sb2-judged-task-vis_bar.history.bin';
    // The current generation's marker first, then the judging patch (histories of sb2-task-v2 recorded before it have
    // no judging step: v2-sb2-task-fm0 and v2-sb2-checked-vote-task-tpl0 above).
    expect(patchIds(f)).toEqual(['sb2-task-v2', 'sb2-chart-judging']);
    expect(patchIds('v2-sb2-task-fm0.history.bin')).not.toContain('sb2-chart-judging');
    expect(activityTypes(f)).toEqual([
      'v2RecalculatedCopies',
      'prepareV2Episode',
      ...['bash', 'submit'].flatMap(() => ['v2ScaffoldModelCall', 'v2ScaffoldShellStep']),
      'collectV2Output',
      'recalcWorkbooks',
      'removeV2WorkDir',
      'prepareV2ChartJudgment',
      'judgeV2Charts',
      'scoreAndRecordV2Task',
    ]);
  });

  it("covers checked_vote's chart judging on v2: the same step after its output's recalculation", () => {
    const f = 'v2-sb2-judged-checked-vote-task-vis_bar.history.bin';
    expect(patchIds(f)).toEqual([
      'sb2-task-v2',
      'checked-vote-formula-candidates',
      'checked-vote-v4-budget',
      'sb2-chart-judging',
    ]);
    expect(activityTypes(f).slice(0, 2)).toEqual(['v2RecalculatedCopies', 'prepareV2CheckedVote']);
    expect(activityTypes(f).slice(-6)).toEqual([
      'checkedVoteChoose',
      'collectV2CheckedVoteOutput',
      'recalcWorkbooks',
      'prepareV2ChartJudgment',
      'judgeV2Charts',
      'scoreAndRecordV2Task',
    ]);
    expect(activityTypes('v2-sb2-checked-vote-task-tpl0.history.bin')).not.toContain('prepareV2ChartJudgment');
  });

  it("covers checked_vote's chart-only candidates and per-chart judge calls (no marker: recorded under the same patches)", () => {
    const judgeAsks = (f: string) =>
      events(f).flatMap((e) => {
        const a = e.activityTaskScheduledEventAttributes;
        if (a?.activityType?.name !== 'judgeV2Charts') return [];
        const ask = JSON.parse(Buffer.from(a.input!.payloads![0].data!).toString()) as {
          callKey: string;
          group?: number;
        };
        return [[ask.callKey.slice(ask.callKey.indexOf('chart-judge')), ask.group]];
      });
    const tail = ['collectV2CheckedVoteOutput', 'recalcWorkbooks', 'prepareV2ChartJudgment'];
    const bar = 'v2-sb2-charts-checked-vote-task-vis_bar.history.bin';
    const two = 'v2-sb2-charts-checked-vote-task-vis_two.history.bin';
    for (const f of [bar, two]) {
      expect(patchIds(f), f).toEqual([
        'sb2-task-v2',
        'checked-vote-formula-candidates',
        'checked-vote-v4-budget',
        'checked-vote-v5-resample',
        'sb2-chart-judging',
      ]);
      expect(activityTypes(f), f).toContain('checkedVoteChoose');
      expect(activityTypes(f).at(-1), f).toBe('scoreAndRecordV2Task');
    }
    // One chart: one judge call with every chart, no group (a prepare result without groups, as before).
    expect(activityTypes(bar).slice(-5)).toEqual([...tail, 'judgeV2Charts', 'scoreAndRecordV2Task']);
    expect(judgeAsks(bar)).toEqual([['chart-judge', undefined]]);
    // Two charts named by title: one call per chart, then one for the item naming none.
    expect(activityTypes(two).slice(-7)).toEqual([...tail, ...Array(3).fill('judgeV2Charts'), 'scoreAndRecordV2Task']);
    expect(judgeAsks(two)).toEqual([
      ['chart-judge/chart-group-1', 0],
      ['chart-judge/chart-group-2', 1],
      ['chart-judge/chart-group-3', 2],
    ]);
  });

  it('replays each of them without a determinism error', async () => {
    const histories = files.map((f) => ({
      workflowId: f,
      history: proto.temporal.api.history.v1.History.decode(readFileSync(path.join(DIR, f))),
    }));
    const results: { workflowId: string; error?: unknown }[] = [];
    for await (const r of Worker.runReplayHistories({ workflowBundle: await workflowBundle() }, histories))
      results.push(r);
    // A failure names the history's patch markers beside the current generations, so the missing path is plain.
    const failure = (r: { workflowId: string; error?: unknown }) =>
      r.error
        ? `${String(r.error)} (history's patches: [${patchIds(r.workflowId).join(', ')}]; current: ${Object.values(CURRENT).join(', ')})`
        : null;
    expect(results.map((r) => [r.workflowId, failure(r)])).toEqual(files.map((f) => [f, null]));
  }, 120_000);
});
