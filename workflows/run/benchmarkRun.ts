import {
  ApplicationFailure,
  CancellationScope,
  ParentClosePolicy,
  patched,
  isCancellation,
  WorkflowIdReusePolicy,
  allHandlersFinished,
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  log,
  setHandler,
  startChild,
  upsertSearchAttributes,
  workflowInfo,
  type ChildWorkflowHandle,
  type Workflow,
} from '@temporalio/workflow';
import { runBookkeeping } from './activities';
import { SA } from '../../lib/temporal/searchAttributes';
import {
  pauseSignal,
  progressQuery,
  resumeSignal,
  setBudgetUpdate,
  queueBudgetSignal,
  taskDoneSignal,
  type RunProgress,
  type RunState,
  type RunWorkflowInput,
  type TaskDoneSignal,
} from '../../contracts/run';
import { spendGrantSignal, spendRequestSignal, spendSettleSignal, type SpendRequest, type SpendSettle } from '../../contracts/budget';
import { freshLedger } from './budget';
import { spreadsheetTask } from '../spreadsheetbench/spreadsheetTask';
import { TaskCompletions } from './taskCompletions';

const { listTaskIds, finalizeRun } = runBookkeeping;

const ID_PAGE = 64;

interface Budget {
  usd?: number;
  tokens?: number;
}

/**
 * One benchmark run: a sliding window of task workflows (children survive continue-as-new: ABANDON), each counted from
 * its completion (or, once handed over to the next execution, from its done signal), progress by query, pause/resume
 * by signal, budget by update, spend reserved and settled per LLM call.
 */
export async function benchmarkRun(input: RunWorkflowInput): Promise<RunProgress> {
  const state: RunState = input.state ?? freshState();
  const budget: Budget = { usd: input.budgetUsd, tokens: input.budgetTokens };
  const inFlight = new Set(state.inFlight);
  const completions = new TaskCompletions((done) => onTaskDone(state, inFlight, done));

  setHandler(taskDoneSignal, (done) => onTaskDone(state, inFlight, done));
  setHandler(pauseSignal, (reason) => pause(state, reason ?? 'paused by operator'));
  setHandler(resumeSignal, async () => {
    resume(state);
    await grantWaiting(state, budget);
  });
  setHandler(spendRequestSignal, (req) => onSpendRequest(state, budget, req));
  setHandler(spendSettleSignal, (settle) => onSpendSettle(state, settle));
  setHandler(progressQuery, () => progress(input, state, inFlight, budget));
  setHandler(
    setBudgetUpdate,
    async (change) => {
      await applyBudget(state, budget, change);
      return progress(input, state, inFlight, budget);
    },
    { validator: (change) => validateBudget(change, state) },
  );
  setHandler(queueBudgetSignal, (change) => onQueuedBudget(state, budget, change));

  try {
    await runTasks(input, state, inFlight, budget, completions);
  } catch (err) {
    if (isCancellation(err)) await cancelTasks(input, inFlight);
    throw err;
  }
  await finalizeRun({ runDir: input.runDir });
  await upsertSearchAttributes([{ key: SA.status, value: 'completed' }]);
  return progress(input, state, inFlight, budget);
}

/** The sliding window: start tasks while there is room, until all are done (or continue-as-new is due). */
async function runTasks(input: RunWorkflowInput, state: RunState, inFlight: Set<string>, budget: Budget, completions: TaskCompletions): Promise<void> {
  const ids = new TaskIdPages(input);
  for (;;) {
    const more = state.nextIndex < input.taskCount;
    await condition(
      () => (more && inFlight.size < input.concurrency && !state.paused) || (!more && inFlight.size === 0) || workflowInfo().continueAsNewSuggested,
    );
    if (workflowInfo().continueAsNewSuggested) {
      await completions.handOver();
      await condition(allHandlersFinished);
      state.inFlight = [...inFlight];
      await continueAsNew<typeof benchmarkRun>({ ...input, budgetUsd: budget.usd, budgetTokens: budget.tokens, state });
    }
    if (!more) break;
    if (overBudget(state, budget)) {
      pause(state, 'budget reached: raise it with `sheetbench budget`');
      continue;
    }
    // Fill every free slot in one workflow task (one start per task made the window refill at ~2 starts/s).
    const room = patched('batched-child-starts') ? Math.min(input.concurrency - inFlight.size, input.taskCount - state.nextIndex) : 1;
    const batch = await ids.slice(state.nextIndex, room);
    // In flight before the starts resolve: a fast task's summary may arrive in the same activation.
    for (const taskId of batch) inFlight.add(taskId);
    state.nextIndex += batch.length;
    await Promise.all(
      batch.map(async (taskId) => {
        completions.watch(taskId, await startTask(input, taskId, budget, completions.enabled));
      }),
    );
  }
}

/** Task ids read page by page from the run folder (the task list itself never enters the history). */
class TaskIdPages {
  private page: string[] = [];
  private pageStart = 0;

  constructor(private readonly input: RunWorkflowInput) {}

  async slice(start: number, count: number): Promise<string[]> {
    const out: string[] = [];
    for (let i = start; i < start + count; i++) {
      if (i < this.pageStart || i >= this.pageStart + this.page.length) {
        this.pageStart = i;
        this.page = await listTaskIds({ runDir: this.input.runDir, offset: i, limit: ID_PAGE, taskIdsFile: this.input.taskIdsFile });
        if (!this.page.length) throw ApplicationFailure.nonRetryable(`run lists ${this.input.taskCount} tasks but has none at index ${i}`, 'DatasetError');
      }
      out.push(this.page[i - this.pageStart]);
    }
    return out;
  }
}

/** Task workflows are abandoned children (they outlive continue-as-new), so a cancelled run cancels them itself. */
async function cancelTasks(input: RunWorkflowInput, inFlight: Set<string>): Promise<void> {
  await CancellationScope.nonCancellable(async () => {
    for (const taskId of inFlight) {
      await getExternalWorkflowHandle(childWorkflowId(input, taskId)).cancel().catch(() => undefined);
    }
    await upsertSearchAttributes([{ key: SA.status, value: 'cancelled' }]);
  });
}

function childWorkflowId(input: RunWorkflowInput, taskId: string): string {
  return `${input.runId}/task/${taskId}${input.childSuffix ? `/${input.childSuffix}` : ''}`;
}

async function startTask(input: RunWorkflowInput, taskId: string, budget: Budget, byCompletion: boolean): Promise<ChildWorkflowHandle<Workflow>> {
  const sa = workflowInfo().typedSearchAttributes;
  // The benchmark's task workflow, by type name: a new benchmark needs no change here.
  const byName = patched('task-workflow-by-name');
  return startChild(byName && input.taskWorkflow ? input.taskWorkflow : spreadsheetTask.name, {
    workflowId: childWorkflowId(input, taskId),
    args: [
      {
        runId: input.runId,
        runDir: input.runDir,
        taskId,
        agent: input.agent,
        taskBudgetUsd: input.taskBudgetUsd,
        recalcTaskQueue: input.recalcTaskQueue,
        budgeted: budget.usd !== undefined || budget.tokens !== undefined,
        ...(byCompletion ? { reportBy: 'completion' as const } : {}),
      },
    ],
    parentClosePolicy: ParentClosePolicy.ABANDON,
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    typedSearchAttributes: [
      { key: SA.runId, value: input.runId },
      { key: SA.taskId, value: taskId },
      { key: SA.benchmark, value: (byName && input.benchmark) || 'spreadsheetbench' },
      { key: SA.agent, value: input.agent },
      { key: SA.model, value: sa.get(SA.model) ?? '' },
      { key: SA.status, value: 'running' },
    ],
  });
}

function onTaskDone(state: RunState, inFlight: Set<string>, done: TaskDoneSignal): void {
  // A summary can arrive twice (a retried signal; a task handed over that completed before the continue-as-new): count each task once.
  if (!inFlight.delete(done.taskId)) return;
  state.done++;
  state.softSum += done.soft;
  state.hardSum += done.hard;
  if (!done.budgeted) addSpend(state, done.usage, done.costUsd, done.llmCalls);
  if (done.failureClass) {
    state.failed++;
    state.failureClasses[done.failureClass] = (state.failureClasses[done.failureClass] ?? 0) + 1;
  }
  upsertSearchAttributes([{ key: SA.costUsd, value: state.costUsd }]);
}

function addSpend(state: RunState, usage: TaskDoneSignal['usage'], costUsd: number, calls: number): void {
  state.costUsd += costUsd;
  state.llmCalls += calls;
  state.usage = { inputTokens: state.usage.inputTokens + usage.inputTokens, outputTokens: state.usage.outputTokens + usage.outputTokens };
}

async function onSpendRequest(state: RunState, budget: Budget, req: SpendRequest): Promise<void> {
  if (state.paused || !canReserve(state, budget)) {
    state.ledger.waiting.push(req);
    if (!state.paused && overBudget(state, budget)) pause(state, 'budget reached: raise it with `sheetbench budget`');
    return;
  }
  await grant(state, req);
}

function onSpendSettle(state: RunState, settle: SpendSettle): void {
  const ledger = state.ledger;
  if (!(settle.callKey in ledger.reservedUsd)) return;
  delete ledger.reservedUsd[settle.callKey];
  delete ledger.reservedTokens[settle.callKey];
  ledger.settledCalls++;
  addSpend(state, settle.usage, settle.costUsd, 1);
}

async function grant(state: RunState, req: SpendRequest): Promise<void> {
  const calls = Math.max(1, state.ledger.settledCalls);
  state.ledger.reservedUsd[req.callKey] = state.costUsd / calls;
  state.ledger.reservedTokens[req.callKey] = (state.usage.inputTokens + state.usage.outputTokens) / calls;
  await getExternalWorkflowHandle(req.workflowId).signal(spendGrantSignal, { callKey: req.callKey });
}

async function grantWaiting(state: RunState, budget: Budget): Promise<void> {
  while (!state.paused && state.ledger.waiting.length && canReserve(state, budget)) {
    await grant(state, state.ledger.waiting.shift()!);
  }
}

function reserved(values: Record<string, number>): number {
  return Object.values(values).reduce((a, b) => a + b, 0);
}

function canReserve(state: RunState, budget: Budget): boolean {
  const tokens = state.usage.inputTokens + state.usage.outputTokens;
  const usdOk = budget.usd === undefined || state.costUsd + reserved(state.ledger.reservedUsd) < budget.usd;
  const tokensOk = budget.tokens === undefined || tokens + reserved(state.ledger.reservedTokens) < budget.tokens;
  return usdOk && tokensOk;
}

function pause(state: RunState, reason: string): void {
  if (!state.paused) log.info('run paused', { reason });
  state.paused = true;
  state.pauseReason = reason;
  upsertSearchAttributes([{ key: SA.status, value: 'paused' }]);
}

function resume(state: RunState): void {
  state.paused = false;
  state.pauseReason = undefined;
  upsertSearchAttributes([{ key: SA.status, value: 'running' }]);
}

function overBudget(state: RunState, budget: Budget): boolean {
  const tokens = state.usage.inputTokens + state.usage.outputTokens;
  return (budget.usd !== undefined && state.costUsd >= budget.usd) || (budget.tokens !== undefined && tokens >= budget.tokens);
}

async function applyBudget(state: RunState, budget: Budget, change: Budget): Promise<void> {
  if (change.usd !== undefined) budget.usd = change.usd;
  if (change.tokens !== undefined) budget.tokens = change.tokens;
  if (state.paused && state.pauseReason?.startsWith('budget') && !overBudget(state, budget)) resume(state);
  await grantWaiting(state, budget);
}

/** A budget change sent while no worker served the run: an invalid one cannot be refused to its sender, so it is reported. */
async function onQueuedBudget(state: RunState, budget: Budget, change: Budget): Promise<void> {
  try {
    validateBudget(change, state);
  } catch (err) {
    if (state.paused) state.pauseReason = `${state.pauseReason ?? 'paused'}; queued budget change ignored: ${(err as Error).message}`;
    return;
  }
  await applyBudget(state, budget, change);
}

function validateBudget(change: Budget, state: RunState): void {
  if (change.usd !== undefined && !(change.usd > state.costUsd)) {
    throw new Error(`budget $${change.usd} is not above what is already spent ($${state.costUsd.toFixed(4)})`);
  }
  const tokens = state.usage.inputTokens + state.usage.outputTokens;
  if (change.tokens !== undefined && !(change.tokens > tokens)) {
    throw new Error(`token budget ${change.tokens} is not above what is already spent (${tokens})`);
  }
}

function progress(input: RunWorkflowInput, state: RunState, inFlight: Set<string>, budget: Budget): RunProgress {
  const elapsedMs = Date.now() - state.startedAtMs;
  const remaining = input.taskCount - state.done;
  return {
    runId: input.runId,
    total: input.taskCount,
    done: state.done,
    running: inFlight.size,
    pending: input.taskCount - state.nextIndex,
    failed: state.failed,
    passRateSoft: state.done ? state.softSum / state.done : 0,
    passRateHard: state.done ? state.hardSum / state.done : 0,
    usage: state.usage,
    costUsd: state.costUsd,
    llmCalls: state.llmCalls,
    paused: state.paused,
    pauseReason: state.pauseReason,
    startedAtMs: state.startedAtMs,
    elapsedMs,
    etaMs: state.done ? (elapsedMs / state.done) * remaining : null,
    budgetUsd: budget.usd,
    budgetTokens: budget.tokens,
    reservedUsd: reserved(state.ledger.reservedUsd),
    waitingCalls: state.ledger.waiting.length,
  };
}

function freshState(): RunState {
  return {
    nextIndex: 0,
    inFlight: [],
    done: 0,
    failed: 0,
    softSum: 0,
    hardSum: 0,
    usage: { inputTokens: 0, outputTokens: 0 },
    costUsd: 0,
    llmCalls: 0,
    paused: false,
    startedAtMs: Date.now(),
    failureClasses: {},
    ledger: freshLedger(),
  };
}
