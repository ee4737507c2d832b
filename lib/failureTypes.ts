import { LLM_FAILURE_CLASSES, type LlmFailureClass } from './llm/types';

/**
 * The types of the failures this project raises across the Temporal boundary (an `ApplicationFailure`'s `type`, or the
 * `name` of an Error an activity lets escape): a closed set. Every thrower names its type through `FailureTypes`, and
 * the task workflows' `classifyFailure` (workflows/run/taskFailure.ts) maps every member to a task failure class.
 * Pure data: safe in the workflow bundle.
 */
export const FAILURE_TYPES = [
  'DatasetError',
  'StageMissing',
  'ConfigError',
  'BudgetExceeded',
  'SandboxLost',
  'BatchPending',
] as const;
export type FailureType = (typeof FAILURE_TYPES)[number];

/** The members by name, for throwers: `ApplicationFailure.nonRetryable(message, FailureTypes.DatasetError)`. */
export const FailureTypes: { readonly [T in FailureType]: T } = {
  DatasetError: 'DatasetError',
  StageMissing: 'StageMissing',
  ConfigError: 'ConfigError',
  BudgetExceeded: 'BudgetExceeded',
  SandboxLost: 'SandboxLost',
  BatchPending: 'BatchPending',
};

/** A failed model call: `Llm.<class>`, one per failure class of lib/llm/failures.ts (the retry policy's classes). */
export type LlmFailureType = `Llm.${LlmFailureClass}`;

export const LLM_FAILURE_TYPES: readonly LlmFailureType[] = LLM_FAILURE_CLASSES.map(llmFailureType);

export function llmFailureType(failureClass: LlmFailureClass): LlmFailureType {
  return `Llm.${failureClass}`;
}

export function isFailureType(type: string): type is FailureType {
  return (FAILURE_TYPES as readonly string[]).includes(type);
}

export function isLlmFailureType(type: string): type is LlmFailureType {
  return (LLM_FAILURE_TYPES as readonly string[]).includes(type);
}
