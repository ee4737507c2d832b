import { heldReply } from '../helpers/heldReply';
import { waitUntil } from '../helpers/wait';
import { spawnWorker, type WorkerProcess } from '../helpers/workerProcess';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startE2E, startBenchmarkRun, workerProcessEnv, type E2EEnv, FAST_FAILOVER } from '../helpers/e2e';
import { DEV20 } from '../helpers/datasets';
import { taskStageQuery, type RunProgress } from '../../contracts/run';
import type { WorkerSet } from '../../workers/createWorkers';
import { copilot797 } from './copilotScripts';
import { readTaskResult, requestsOf, startInProcessWorkers } from './harness';

let env: E2EEnv;
let worker: WorkerProcess | undefined;
let workers: WorkerSet | undefined;
const firstValidation = heldReply('VALIDATION PASSED', 20_000);

beforeAll(async () => {
  // The first validation request hangs long enough for the kill to land while stage 5 is in flight.
  const slowValidate = {
    name: 'slow-validate',
    match: { callKey: /\/79-7\/copilot\/validate$/ },
    reply: firstValidation.reply,
    times: 1,
  };
  env = await startE2E({ rules: [slowValidate, ...copilot797()] }, { config: FAST_FAILOVER });
}, 120_000);

afterAll(async () => {
  if (worker && worker.child.exitCode === null && worker.child.signalCode === null) worker.crash();
  await workers?.shutdown();
  await env?.close();
}, 60_000);

it('a worker killed during stage 5 costs no new stage 2–4 calls; the task completes on another worker', async () => {
  worker = spawnWorker(workerProcessEnv(env));
  const run = await startBenchmarkRun(env, { dataset: DEV20, agent: 'sheetcopilot', tasks: ['79-7'] });
  const task = env.client.workflow.getHandle(`${run.runId}/task/79-7`);
  await waitUntil(async () => (await task.query(taskStageQuery).catch(() => undefined))?.stage === 'validate', 90_000);
  // Stage 5 copies the output for recalculation, recalculates and inspects it, then asks the (held) model: kill then.
  await waitUntil(firstValidation.arrived, 120_000, 'the first validation request');
  worker.crash();
  firstValidation.release(); // the cut request ends (unanswered) once the server sees its client gone, not after 20 s
  workers = await startInProcessWorkers(env);
  const running = workers.run();
  const progress = (await run.handle.result()) as RunProgress;
  await workers.shutdown();
  await running;
  workers = undefined;

  expect(progress.done).toBe(1);
  const keys = requestsOf(env.llm.log, run.runId, '79-7')
    .filter((e) => e.answered)
    .map((e) => e.callKey!.split('/copilot/')[1]);
  for (const stage of ['understand', 'plan', 'implement']) expect(keys.filter((k) => k === stage)).toHaveLength(1);
  expect(keys.filter((k) => k === 'validate')).toHaveLength(1);
  // The kill cut the first validation request (never answered); only that stage was asked again.
  const validateRequests = () =>
    requestsOf(env.llm.log, run.runId, '79-7').filter((e) => e.callKey!.endsWith('/copilot/validate'));
  // The log is in completion order: the held first request is logged when its hold ends (wait), then compare by arrival.
  await waitUntil(() => validateRequests().length >= 2, 60_000, 'the held validation request to end');
  expect(
    validateRequests()
      .sort((x, y) => x.seq - y.seq)
      .map((e) => e.answered),
  ).toEqual([false, true]);
  const result = readTaskResult(run.runDir, '79-7');
  expect(result.failure).toBeUndefined();
  expect(
    result.stages.filter((s) => ['understand', 'plan', 'implement', 'validate'].includes(s.stage)).map((s) => s.stage),
  ).toEqual(['understand', 'plan', 'implement', 'validate']);
  expect(result.testCaseResults).toEqual([1, 1, 1]);
}, 240_000);
