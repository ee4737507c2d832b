import {
  CancellationScope,
  getExternalWorkflowHandle,
  log,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import {
  spendGrantSignal,
  spendRequestSignal,
  spendSettleSignal,
  type BudgetLedger,
  type SpendRequest,
  type SpendSettle,
} from '../../contracts/budget';
import {
  pauseSignal,
  progressQuery,
  queueBudgetSignal,
  resumeSignal,
  setBudgetUpdate,
  taskDoneSignal,
  type RunProgress,
  type RunState,
  type RunWorkflowInput,
  type TaskDoneSignal,
} from '../../contracts/run';
import { SA } from '../../lib/temporal/searchAttributes';
import { TokenUsage } from '../../lib/llm/usage';

export interface Budget {
  usd?: number;
  tokens?: number;
}

/** Why a run pauses when its spend reaches the budget. */
export const BUDGET_REACHED = 'budget reached: raise it with `sheetbench budget`';

/** What a generation of the run workflow does differently with the same controls. */
export interface RunControlOptions {
  /**
   * From 'benchmark-run-v10': a settled call looks at the spend requests held behind its reservation, pausing the run
   * if the spend reached the budget, else granting them. Before, nothing did until a new task started, and a run
   * whose last task's request was held neither paused nor went on.
   */
  settleReleasesWaiting?: boolean;
}

/**
 * A run's state and the controls operators and tasks reach it by, the same for every generation of the run workflow:
 * tasks counted as they end (each once), spend reserved and settled per LLM call against the budget, pause and resume,
 * the progress query, and the budget update (or the queued budget signal when no worker was there to validate it).
 */
export class RunControl {
  readonly state: RunState;
  readonly budget: Budget;
  /** Tasks started and not yet counted (carried over continue-as-new in `state.inFlight`). */
  readonly inFlight: Set<string>;

  constructor(
    private readonly input: RunWorkflowInput,
    private readonly options: RunControlOptions = {},
  ) {
    this.state = input.state ?? freshState();
    this.budget = { usd: input.budgetUsd, tokens: input.budgetTokens };
    this.inFlight = new Set(this.state.inFlight);
    setHandler(taskDoneSignal, (done) => this.taskDone(done));
    setHandler(pauseSignal, (reason) => this.pause(reason ?? 'paused by operator'));
    setHandler(resumeSignal, async () => {
      this.resume();
      await this.grantWaiting();
    });
    setHandler(spendRequestSignal, (req) => this.onSpendRequest(req));
    setHandler(spendSettleSignal, (settle) => this.onSpendSettle(settle));
    setHandler(progressQuery, () => this.progress());
    setHandler(
      setBudgetUpdate,
      async (change) => {
        await this.applyBudget(change);
        return this.progress();
      },
      { validator: (change) => this.validateBudget(change) },
    );
    setHandler(queueBudgetSignal, (change) => this.onQueuedBudget(change));
  }

  /** A task's done summary. It can arrive twice (a retried signal; a task handed over that completed before the continue-as-new): each task counts once. */
  taskDone(done: TaskDoneSignal): void {
    const { state } = this;
    if (!this.inFlight.delete(done.taskId)) return;
    state.done++;
    state.softSum += done.soft;
    state.hardSum += done.hard;
    if (!done.budgeted) this.addSpend(done.usage, done.costUsd, done.llmCalls);
    if (done.failureClass) {
      state.failed++;
      state.failureClasses[done.failureClass] = (state.failureClasses[done.failureClass] ?? 0) + 1;
    }
    upsertSearchAttributes([{ key: SA.costUsd, value: state.costUsd }]);
  }

  /** Task workflows are abandoned children (they outlive continue-as-new), so a cancelled run cancels them itself. */
  async cancelTasks(childWorkflowId: (taskId: string) => string): Promise<void> {
    await CancellationScope.nonCancellable(async () => {
      for (const taskId of this.inFlight) {
        await getExternalWorkflowHandle(childWorkflowId(taskId))
          .cancel()
          .catch(() => undefined); // that task already ended (or never started): nothing to cancel
      }
      upsertSearchAttributes([{ key: SA.status, value: 'cancelled' }]);
    });
  }

  /** The input of the next execution, when history grows long: the state, the budget as changed so far. */
  continuedInput(): RunWorkflowInput {
    this.state.inFlight = [...this.inFlight];
    return { ...this.input, budgetUsd: this.budget.usd, budgetTokens: this.budget.tokens, state: this.state };
  }

  pause(reason: string): void {
    if (!this.state.paused) log.info('run paused', { reason });
    this.state.paused = true;
    this.state.pauseReason = reason;
    upsertSearchAttributes([{ key: SA.status, value: 'paused' }]);
  }

  overBudget(): boolean {
    const { state, budget } = this;
    const tokens = state.usage.inputTokens + state.usage.outputTokens;
    return (
      (budget.usd !== undefined && state.costUsd >= budget.usd) ||
      (budget.tokens !== undefined && tokens >= budget.tokens)
    );
  }

  get budgeted(): boolean {
    return this.budget.usd !== undefined || this.budget.tokens !== undefined;
  }

  progress(): RunProgress {
    const { state, input } = this;
    const elapsedMs = Date.now() - state.startedAtMs;
    const remaining = input.taskCount - state.done;
    return {
      runId: input.runId,
      total: input.taskCount,
      done: state.done,
      running: this.inFlight.size,
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
      budgetUsd: this.budget.usd,
      budgetTokens: this.budget.tokens,
      reservedUsd: reserved(state.ledger.reservedUsd),
      waitingCalls: state.ledger.waiting.length,
    };
  }

  private resume(): void {
    this.state.paused = false;
    this.state.pauseReason = undefined;
    upsertSearchAttributes([{ key: SA.status, value: 'running' }]);
  }

  private addSpend(usage: TaskDoneSignal['usage'], costUsd: number, calls: number): void {
    const { state } = this;
    state.costUsd += costUsd;
    state.llmCalls += calls;
    state.usage = TokenUsage.add(state.usage, usage);
  }

  private async onSpendRequest(req: SpendRequest): Promise<void> {
    if (this.state.paused || !this.canReserve()) {
      this.state.ledger.waiting.push(req);
      if (!this.state.paused && this.overBudget()) this.pause(BUDGET_REACHED);
      return;
    }
    await this.grant(req);
  }

  private async onSpendSettle(settle: SpendSettle): Promise<void> {
    const ledger = this.state.ledger;
    if (!(settle.callKey in ledger.reservedUsd)) return;
    delete ledger.reservedUsd[settle.callKey];
    delete ledger.reservedTokens[settle.callKey];
    ledger.settledCalls++;
    this.addSpend(settle.usage, settle.costUsd, 1);
    if (this.options.settleReleasesWaiting) await this.releaseWaiting();
  }

  /** The requests held behind a reservation just settled: the run pauses if the budget is spent, else they are granted. */
  private async releaseWaiting(): Promise<void> {
    if (this.state.paused || !this.state.ledger.waiting.length) return;
    if (this.overBudget()) this.pause(BUDGET_REACHED);
    else await this.grantWaiting();
  }

  /** Reserves the mean cost of a call so far for this one, and tells the task it may call. */
  private async grant(req: SpendRequest): Promise<void> {
    const { state } = this;
    const calls = Math.max(1, state.ledger.settledCalls);
    state.ledger.reservedUsd[req.callKey] = state.costUsd / calls;
    state.ledger.reservedTokens[req.callKey] = (state.usage.inputTokens + state.usage.outputTokens) / calls;
    await getExternalWorkflowHandle(req.workflowId).signal(spendGrantSignal, { callKey: req.callKey });
  }

  private async grantWaiting(): Promise<void> {
    while (!this.state.paused && this.state.ledger.waiting.length && this.canReserve()) {
      await this.grant(this.state.ledger.waiting.shift()!);
    }
  }

  private canReserve(): boolean {
    const { state, budget } = this;
    const tokens = state.usage.inputTokens + state.usage.outputTokens;
    const usdOk = budget.usd === undefined || state.costUsd + reserved(state.ledger.reservedUsd) < budget.usd;
    const tokensOk = budget.tokens === undefined || tokens + reserved(state.ledger.reservedTokens) < budget.tokens;
    return usdOk && tokensOk;
  }

  private async applyBudget(change: Budget): Promise<void> {
    if (change.usd !== undefined) this.budget.usd = change.usd;
    if (change.tokens !== undefined) this.budget.tokens = change.tokens;
    if (this.state.paused && this.state.pauseReason?.startsWith('budget') && !this.overBudget()) this.resume();
    await this.grantWaiting();
  }

  /** A budget change sent while no worker served the run: an invalid one cannot be refused to its sender, so it is reported. */
  private async onQueuedBudget(change: Budget): Promise<void> {
    try {
      this.validateBudget(change);
    } catch (err) {
      if (this.state.paused)
        this.state.pauseReason = `${this.state.pauseReason ?? 'paused'}; queued budget change ignored: ${(err as Error).message}`;
      return;
    }
    await this.applyBudget(change);
  }

  private validateBudget(change: Budget): void {
    const { state } = this;
    if (change.usd !== undefined && !(change.usd > state.costUsd)) {
      throw new Error(`budget $${change.usd} is not above what is already spent ($${state.costUsd.toFixed(4)})`);
    }
    const tokens = state.usage.inputTokens + state.usage.outputTokens;
    if (change.tokens !== undefined && !(change.tokens > tokens)) {
      throw new Error(`token budget ${change.tokens} is not above what is already spent (${tokens})`);
    }
  }
}

function reserved(values: Record<string, number>): number {
  return Object.values(values).reduce((a, b) => a + b, 0);
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

function freshLedger(): BudgetLedger {
  return { reservedUsd: {}, reservedTokens: {}, waiting: [], settledCalls: 0 };
}
