import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import type { TaskFailureClass } from '../../contracts/taskResult';

/** Why a task workflow has no normal verdict, from the failure type its activity raised. */
export function classifyFailure(err: unknown): { class: TaskFailureClass; message: string } {
  const app = err instanceof ActivityFailure ? err.cause : err;
  const type = app instanceof ApplicationFailure ? (app.type ?? '') : '';
  const cls: TaskFailureClass = type === 'DatasetError' ? 'dataset'
    : type === 'BudgetExceeded' ? 'budget'
    : type.startsWith('Llm.') ? 'llm'
    : type === 'SandboxLost' ? 'sandbox'
    : type === 'ConfigError' ? 'internal'
    : 'internal';
  return { class: cls, message: failureMessage(err) };
}

export function failureMessage(err: unknown): string {
  if (err instanceof ActivityFailure && err.cause) return err.cause.message;
  return err instanceof Error ? err.message : String(err);
}
