import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure } from '@temporalio/workflow';
import type { TaskFailureClass } from '../../contracts/taskResult';

/** Why a task workflow has no normal verdict, from the failure type its activity (or child workflow) raised. */
export function classifyFailure(err: unknown): { class: TaskFailureClass; message: string } {
  const app = causeOf(err);
  const type = app instanceof ApplicationFailure ? (app.type ?? '') : '';
  const cls: TaskFailureClass =
    type === 'DatasetError'
      ? 'dataset'
      : type === 'BudgetExceeded'
        ? 'budget'
        : type.startsWith('Llm.')
          ? 'llm'
          : type === 'SandboxLost'
            ? 'sandbox'
            : 'internal';
  return { class: cls, message: failureMessage(err) };
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
