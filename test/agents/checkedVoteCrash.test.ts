import { afterAll, beforeAll, expect, it } from 'vitest';
import { duplicatesAnswered } from '../../lib/scriptedLlm';
import { taskStageQuery, type RunProgress } from '../../contracts/run';
import type { WorkerSet } from '../../workers/createWorkers';
import { FAST_FAILOVER, startE2E, startBenchmarkRun, workerProcessEnv, type E2EEnv } from '../helpers/e2e';
import { DEV20 } from '../helpers/datasets';
import { heldReply } from '../helpers/heldReply';
import { waitUntil } from '../helpers/wait';
import { spawnWorker, type WorkerProcess } from '../helpers/workerProcess';
import { readTaskResult, requestsOf, startInProcessWorkers } from './harness';

let env: E2EEnv;
let worker: WorkerProcess | undefined;
let workers: WorkerSet | undefined;

/** 39604 is cell-level: its candidates are formula candidates (one formula for C4). */
const reply = '```excel\n=MAX(0,IF((B3*1000)<22000,B4-20,B4-30))\n```';
const secondCandidate = heldReply(reply, 20_000);

beforeAll(async () => {
  env = await startE2E(
    {
      rules: [
        // The second candidate's first request hangs long enough for the kill to land while it is in flight.
        {
          name: 'slow-formula-2',
          match: { callKey: /\/39604\/formula-2\/0$/ },
          reply: secondCandidate.reply,
          times: 1,
        },
        { name: 'formula', match: { callKey: /\/39604\/formula-\d\/\d$/ }, reply },
      ],
    },
    { config: FAST_FAILOVER },
  );
}, 120_000);

afterAll(async () => {
  if (worker && worker.child.exitCode === null && worker.child.signalCode === null) worker.crash();
  await workers?.shutdown();
  await env?.close();
}, 60_000);

it('checked_vote: a worker killed with -9 mid-task resumes on another, no model call answered twice', async () => {
  worker = spawnWorker(workerProcessEnv(env));
  const run = await startBenchmarkRun(env, { dataset: DEV20, agent: 'checked_vote', tasks: ['39604'] });
  const task = env.client.workflow.getHandle(`${run.runId}/task/39604`);
  await waitUntil(
    async () => (await task.query(taskStageQuery).catch(() => undefined))?.stage === 'formula-2.0',
    180_000,
  );
  await waitUntil(secondCandidate.arrived, 120_000, "the second candidate's first request");
  worker.crash();
  secondCandidate.release(); // the cut request ends (unanswered) once the server sees its client gone, not after 20 s
  workers = await startInProcessWorkers(env);
  const running = workers.run();
  const progress = (await run.handle.result()) as RunProgress;
  await workers.shutdown();
  await running;
  workers = undefined;

  expect(progress.done).toBe(1);
  // The log is in completion order: the held first request is logged when its hold ends; wait for it.
  await waitUntil(
    () => requestsOf(env.llm.log, run.runId, '39604').filter((e) => e.callKey!.endsWith('/formula-2/0')).length >= 2,
    60_000,
    "the second candidate's held request to end",
  );
  const requests = requestsOf(env.llm.log, run.runId, '39604');
  const answered = requests.filter((e) => e.answered).map((e) => e.callKey!.split('/39604/')[1]);
  // The first candidate was asked once, before the kill; the second was asked again (its first request was cut).
  expect(answered).toEqual(['formula-1/0', 'formula-2/0']);
  // In arrival order (the log is in completion order: the held first request is logged when its hold ends).
  const secondCandidateRequests = requests
    .filter((e) => e.callKey!.endsWith('/formula-2/0'))
    .sort((x, y) => x.seq - y.seq);
  expect(secondCandidateRequests.map((e) => e.answered)).toEqual([false, true]);
  expect(duplicatesAnswered(env.llm.log)).toEqual([]);
  const result = readTaskResult(run.runDir, '39604');
  expect(result.failure).toBeUndefined();
  expect(result.stages.map((s) => s.stage)).toEqual([
    'prepare',
    'view',
    'formula-1.0',
    'formula-2.0',
    'vote',
    'recalc',
    'score',
  ]);
  expect(result.llmCalls).toBe(2);
  expect(result.testCaseResults).toEqual([1, 1, 1]);
}, 400_000);
