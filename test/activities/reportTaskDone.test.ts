import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { MockActivityEnvironment } from '@temporalio/testing';
import { defaultPayloadConverter } from '@temporalio/common';
import { runActivities } from '../../activities/run/index';
import type { TaskDoneSignal } from '../../contracts/run';
import { startTestTemporal, type TestTemporal } from '../helpers/temporalServer';

const done: TaskDoneSignal = {
  taskId: '13-1',
  soft: 2 / 3,
  hard: 0,
  usage: { inputTokens: 10, outputTokens: 5 },
  costUsd: 0.01,
  llmCalls: 1,
};

/**
 * The task's done report as a local activity (workflows/spreadsheetbench/legacy/taskPaths.ts): it signals the run through the worker's client,
 * which runs over a NativeConnection as in production.
 */
describe('reportTaskDone', () => {
  let temporal: TestTemporal;
  let client: Client;
  let connection: NativeConnection;
  const report = (runWorkflowId: string) =>
    new MockActivityEnvironment(undefined, { client }).run(runActivities.reportTaskDone, { runWorkflowId, done });
  // A run workflow that no worker serves: the signal is recorded in its history all the same.
  const startRun = (workflowId: string) =>
    client.workflow.start('benchmarkRun', { taskQueue: 'nobody-polls', workflowId, args: [{}] });

  beforeAll(async () => {
    temporal = await startTestTemporal();
    connection = await NativeConnection.connect({ address: temporal.address });
    client = new Client({ connection, namespace: temporal.namespace });
  }, 120_000);
  afterAll(async () => {
    await connection?.close();
    await temporal?.stop();
  });

  it("puts the task's summary into the run's history as a taskDone signal", async () => {
    const run = await startRun('report-running');
    await report('report-running');
    const signals =
      (await run.fetchHistory()).events?.flatMap((e) =>
        e.workflowExecutionSignaledEventAttributes ? [e.workflowExecutionSignaledEventAttributes] : [],
      ) ?? [];
    expect(signals.map((s) => s.signalName)).toEqual(['taskDone']);
    expect(defaultPayloadConverter.fromPayload(signals[0].input!.payloads![0])).toEqual(done);
  });

  it('ends quietly when the run is gone (terminated, or never there): the result is already in the run folder', async () => {
    const run = await startRun('report-terminated');
    await run.terminate('test');
    await expect(report('report-terminated')).resolves.toBeUndefined();
    await expect(report('report-never-started')).resolves.toBeUndefined();
  });
});
