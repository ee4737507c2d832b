import type { TokenUsage } from '../lib/llm/types';

/**
 * Why a task has no normal verdict. `model`: the model's replies were unusable (no code, truncated) — a verdict, not
 * an outage. Infrastructure classes may be retried by `sheetbench retry --failed`.
 */
export const TASK_FAILURE_CLASSES = [
  'dataset', // missing or corrupt workbooks, malformed record
  'model', // replies without usable code, cut off, not text
  'llm', // provider unreachable, auth, context too long, retries exhausted
  'sandbox', // sandbox lost
  'recalc',
  'scoring',
  'budget',
  'config', // the run asked for something this release does not have (an unknown agent)
  'cancelled',
  'internal',
] as const;
export type TaskFailureClass = (typeof TASK_FAILURE_CLASSES)[number];

export const INFRASTRUCTURE_FAILURES: readonly TaskFailureClass[] = ['llm', 'sandbox', 'recalc', 'scoring', 'internal'];

export interface StageRecord {
  stage: string;
  llmCalls: number;
  usage: TokenUsage;
  costUsd: number;
  wallMs: number;
  outcome: string;
}

/** What a task workflow returns and the run collects (small: a few hundred bytes plus stage records). */
export interface TaskResult {
  taskId: string;
  /** The id with its original type, for the official eval JSON. */
  id: number | string;
  /** Which attempt of the task this is, in a run with repeats (`run --epochs K`; `taskId` is then its attempt key). */
  epoch?: number;
  instructionType: string;
  testCaseResults: number[];
  soft: number;
  hard: number;
  failure?: { class: TaskFailureClass; message: string };
  llmCalls: number;
  usage: TokenUsage;
  costUsd: number;
  stages: StageRecord[];
  /** Per test case, why it failed (from the scorer). */
  reasons: (string | null)[];
  wallMs: number;
}
