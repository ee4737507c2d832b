/** Inputs, outputs, signals and queries shared by workflows, activities and the client. Small by design. */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { TaskFailureClass } from './taskResult';
import type { TokenUsage } from '../lib/llm/types';
import type { BudgetLedger } from './budget';
import type { Failover } from './failover';

export interface RunWorkflowInput {
  runId: string;
  runDir: string;
  taskCount: number;
  concurrency: number;
  budgetUsd?: number;
  budgetTokens?: number;
  taskBudgetUsd?: number;
  agent: string;
  /** The benchmark (search attribute of its tasks) and the workflow type that runs one of its tasks (default spreadsheetTask). */
  benchmark?: string;
  taskWorkflow?: string;
  /** A subset of the run's tasks (a file of ids in the run folder), e.g. for `retry --failed`. */
  taskIdsFile?: string;
  /** Appended to task workflow ids, so a retry's tasks do not collide with the first attempt's. */
  childSuffix?: string;
  /** Task queue of the recalculation workers; none: outputs are scored as written. */
  recalcTaskQueue?: string;
  /** Carried over continue-as-new. */
  state?: RunState;
  /** How soon a dead worker's work moves elsewhere (config `temporal.failover`); absent: the workflows' timeouts. */
  failover?: Failover;
}

/** What a run has spent, and whether it is paused: kept in the run's state and reported in its progress. */
export interface RunSpendAndPause {
  usage: TokenUsage;
  costUsd: number;
  llmCalls: number;
  paused: boolean;
  pauseReason?: string;
}

export interface RunState extends RunSpendAndPause {
  nextIndex: number;
  inFlight: string[];
  done: number;
  failed: number;
  softSum: number;
  hardSum: number;
  startedAtMs: number;
  failureClasses: Partial<Record<TaskFailureClass, number>>;
  ledger: BudgetLedger;
}

export interface TaskWorkflowInput {
  runId: string;
  runDir: string;
  taskId: string;
  agent: string;
  taskBudgetUsd?: number;
  recalcTaskQueue?: string;
  /** The run has a budget: each LLM call asks the run for a grant and settles its spend (see budget.ts). */
  budgeted?: boolean;
  /** `rerun --from-stage K`: stages < K are read from the task's recorded artifacts, not recomputed. */
  fromStage?: number;
  /** Folder of prompt template files that replace the built-in ones (recorded in each stage's artifact). */
  promptDir?: string;
  /** Distinguishes a rerun's LLM calls from the original run's (call keys, response cache). */
  rerunTag?: string;
  /**
   * 'completion': the run reads the task's done summary from its result (the child-completion event it gets anyway),
   * until it hands the task over (see handOverSignal). Unset (runs started before): the task signals it.
   */
  reportBy?: 'completion';
  /** How soon a dead worker's work moves elsewhere (config `temporal.failover`); absent: the workflows' timeouts. */
  failover?: Failover;
}

/** What a task reports to its run: the full TaskResult stays in the artifact store (results/<id>.json). */
/**
 * Input of a benchmark's rejudge workflow (`Benchmark.rejudge.workflow`, e.g. `dsbenchRejudge`): judge recorded
 * answers of a run again without asking the answering model.
 */
export interface RejudgeInput {
  runId: string;
  runDir: string;
  /** File (in the run folder) listing the task ids to judge again. */
  taskIdsFile: string;
  count: number;
  /** Distinguishes this rejudge's calls from earlier judgments (call keys, response cache). */
  tag: string;
  judgeModel?: string;
  concurrency: number;
  /** How soon a dead worker's work moves elsewhere (config `temporal.failover`); absent: the workflows' timeouts. */
  failover?: Failover;
}

export interface TaskDoneSignal {
  taskId: string;
  soft: number;
  hard: number;
  failureClass?: TaskFailureClass;
  usage: TokenUsage;
  costUsd: number;
  llmCalls: number;
  /** Spend already settled call by call with the run (not to be added again). */
  budgeted?: boolean;
}

export interface RunProgress extends RunSpendAndPause {
  runId: string;
  total: number;
  done: number;
  running: number;
  pending: number;
  failed: number;
  passRateSoft: number;
  passRateHard: number;
  /** Workflow time when the run started; clients compute live elapsed time and ETA from it (query time is frozen). */
  startedAtMs: number;
  elapsedMs: number;
  etaMs: number | null;
  budgetUsd?: number;
  budgetTokens?: number;
  reservedUsd: number;
  waitingCalls: number;
}

/** What a task workflow returns: its run reads `done` from the child-completion event. */
export interface TaskCompletion {
  done: TaskDoneSignal;
}

export const taskDoneSignal = defineSignal<[TaskDoneSignal]>('taskDone');
/**
 * From a run about to continue as new, to each task it reads by completion: the task's completion would reach the
 * closed execution, so the task signals its done summary (to the run's workflow id: its latest execution) instead.
 */
export const handOverSignal = defineSignal('handOver');
export const pauseSignal = defineSignal<[string?]>('pause');
export const resumeSignal = defineSignal('resume');
export const progressQuery = defineQuery<RunProgress>('progress');
export const setBudgetUpdate = defineUpdate<RunProgress, [{ usd?: number; tokens?: number }]>('setBudget');
/** The same change, kept by the server while no worker serves the run; applied (or refused, see the pause reason) later. */
export const queueBudgetSignal = defineSignal<[{ usd?: number; tokens?: number }]>('queueBudget');

export const taskStageQuery = defineQuery<{ stage: string; usage: TokenUsage; costUsd: number; llmCalls: number }>(
  'taskStage',
);
