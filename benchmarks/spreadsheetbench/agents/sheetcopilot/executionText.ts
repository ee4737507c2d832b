/** What an execution looked like, as stages 5 and 6 see it (pure: used by the workflow and by activities). */
export interface ExecutionOutcome {
  outputProduced: boolean;
  feedback: string;
  error: string;
  timedOut: boolean;
}

/**
 * Success made exact (the reference fork, lowl6/SpreadsheetBench, tested the output text for "Error"): no error, no
 * timeout, and an output was written.
 */
export function executionSucceeded(e: ExecutionOutcome): boolean {
  return !e.error && !e.timedOut && e.outputProduced;
}

/** The error the model is shown when an execution did not succeed. */
export function failureText(e: ExecutionOutcome): string {
  if (e.error) return e.error;
  if (e.timedOut) return 'the execution timed out';
  if (!e.outputProduced) return `the code ran but wrote no output workbook at output_path\n${e.feedback}`;
  return '';
}

/** Stands in for an execution when there is no code to run. */
export function noCodeExecution(why: string): ExecutionOutcome {
  return { outputProduced: false, feedback: '', error: `no code to execute: ${why}`, timedOut: false };
}

export function summarizeExecution(e: ExecutionOutcome): ExecutionOutcome {
  return { outputProduced: e.outputProduced, feedback: e.feedback, error: e.error, timedOut: e.timedOut };
}
