import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure } from '@temporalio/workflow';
import type { TaskFailureClass } from '../../contracts/taskResult';
import { isFailureType, isLlmFailureType, type FailureType } from '../../lib/failureTypes';

/**
 * The task failure class of each failure type (lib/failureTypes.ts). A Record: a failure type added there does not
 * compile until it is given its class here.
 */
export const TASK_FAILURE_CLASS_OF: Readonly<Record<FailureType, TaskFailureClass>> = {
  DatasetError: 'dataset',
  // A `rerun --from-stage` whose earlier stage's record is missing or malformed: the task's record, not an outage.
  StageMissing: 'dataset',
  ConfigError: 'config',
  BudgetExceeded: 'budget',
  SandboxLost: 'sandbox',
  // A model call handed to a batch (run --batch): the task waits for the batch's reply (workflows/run/batchedCall.ts);
  // were one to escape that wait, the task would lack its model's reply.
  BatchPending: 'llm',
};

/** Why a task workflow has no normal verdict, from the failure type its activity (or child workflow) raised. */
export function classifyFailure(err: unknown): { class: TaskFailureClass; message: string } {
  const app = causeOf(err);
  const type = app instanceof ApplicationFailure ? (app.type ?? '') : '';
  return { class: taskFailureClassOf(type), message: failureMessage(err) };
}

/** `internal` only for a type outside the closed set (a bug, or an error no thrower named). */
export function taskFailureClassOf(type: string): TaskFailureClass {
  if (isFailureType(type)) return TASK_FAILURE_CLASS_OF[type];
  if (isLlmFailureType(type)) return 'llm';
  return 'internal';
}

export function failureMessage(err: unknown): string {
  const cause = causeOf(err);
  if (cause !== err && cause instanceof Error)
    return err instanceof ChildWorkflowFailure
      ? `the ${err.workflowType} workflow failed: ${cause.message}`
      : cause.message;
  return err instanceof Error ? err.message : String(err);
}

/** The failure an activity or a child workflow raised, not Temporal's wrapper around it. */
function causeOf(err: unknown): unknown {
  return (err instanceof ActivityFailure || err instanceof ChildWorkflowFailure) && err.cause ? err.cause : err;
}
