import { describe, expect, it } from 'vitest';
import type { LogEntry } from '@temporalio/worker';
import { workerLogLine } from '../../workers/workerLog';

const entry = (message: string, meta?: Record<string, unknown>): LogEntry => ({
  message,
  level: 'WARN',
  timestampNanos: 0n,
  meta,
});
const failure = (workflowId: string) =>
  entry('Activity failed', {
    workflowId,
    activityType: 'llmTurn',
    attempt: 3,
    error: new Error('LLM call failed (auth): 401 Incorrect API key\n    at stack line'),
  });

describe('worker log lines', () => {
  it('prints an activity failure as one line: task workflow, activity, attempt, first line of the message', () => {
    expect(workerLogLine(failure('run-a/task/1001'))).toEqual({
      line: '[WARN] run-a/task/1001: llmTurn attempt 3 failed: LLM call failed (auth): 401 Incorrect API key',
    });
  });

  it("a CLI following one run drops other runs' failures (all runs share the task queues)", () => {
    expect(workerLogLine(failure('run-b/task/1001'), 'run-a')).toEqual({});
    expect(workerLogLine(failure('run-ab/task/1001'), 'run-a')).toEqual({});
    expect(workerLogLine(failure('run-a/task/7/retry-1'), 'run-a')?.line).toContain('run-a/task/7/retry-1');
    expect(workerLogLine(failure('run-a'), 'run-a')?.line).toContain('run-a: llmTurn');
  });

  it("drops the recalc worker's expected 'no workflows' notice and leaves other entries to the SDK's format", () => {
    expect(workerLogLine(entry('No workflows registered, not polling for workflow tasks'))).toEqual({});
    expect(workerLogLine(entry('Worker state changed', { state: 'RUNNING' }))).toBeUndefined();
  });
});
