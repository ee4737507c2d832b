import type { ExecutionResult } from '../../lib/sandbox/types';

export const NO_OUTPUT = '[Code executed successfully with no output]';
const MAX_FEEDBACK_CHARS = 8_000;

/** What the model is told about an execution, in the official harness's shape: output, then the condensed traceback. */
export function executionFeedback(result: Pick<ExecutionResult, 'stdout' | 'stderr' | 'error' | 'timedOut'>): string {
  const parts = [result.stdout, result.error].filter((s) => s.trim().length > 0);
  if (result.timedOut) parts.push('[Execution timed out.]');
  const text = parts.join('\n');
  if (!text) return NO_OUTPUT;
  return text.length > MAX_FEEDBACK_CHARS ? `${text.slice(0, MAX_FEEDBACK_CHARS)}\n[... output truncated ...]` : text;
}
