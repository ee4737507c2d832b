import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedRequest } from '../../lib/scriptedLlm';
import { pauseSignal, progressQuery, resumeSignal, type RunProgress } from '../../contracts/run';
import type { WorkerSet } from '../../workers/createWorkers';
import { startBenchmarkRun, startE2E, startInProcessWorkers, type E2EEnv, type StartedRun } from '../helpers/e2e';
import { DEV20 } from '../helpers/datasets';
import { promptField } from '../helpers/scriptedSolutions';
import { waitUntil } from '../helpers/wait';
import { sandboxProcesses as countSandboxProcesses } from '../helpers/sandboxProcesses';

const workRoot = mkdtempSync(path.join(os.tmpdir(), 'sb-ctl-work-'));

/** Every task's code sleeps for a minute inside the sandbox: executions are in flight when the run is cancelled. */
function sleepyCode(request: ScriptedRequest): string {
  return `\`\`\`python\nimport time, shutil\ntime.sleep(60)\nshutil.copy('${promptField(request, 'spreadsheet_path')}', '${promptField(request, 'output_path')}')\n\`\`\``;
}

const sandboxProcesses = () => countSandboxProcesses(workRoot);

describe('pause, resume and cancel a running run', () => {
  let env: E2EEnv;
  let run: StartedRun;
  let workers: WorkerSet;
  let running: Promise<void>;
  let paused: RunProgress;
  let startedWhilePaused: number;
  let sandboxesBeforeCancel: number;
  let status: string;

  beforeAll(async () => {
    env = await startE2E(
      { rules: [], fallback: sleepyCode },
      { config: { run: { concurrency: 2 }, sandbox: { workRoot }, recalc: { engine: 'none' } } },
    );
    run = await startBenchmarkRun(env, { dataset: DEV20, tasks: ['39604', '79-7', '599-9', '57105', '17251'] });
    workers = await startInProcessWorkers(env);
    running = workers.run();
    const progress = () => run.handle.query(progressQuery);

    await waitUntil(async () => (await progress()).running === 2, 60_000, 'two tasks running');
    await run.handle.signal(pauseSignal, 'operator pause');
    paused = await progress();
    await new Promise((r) => setTimeout(r, 3_000));
    startedWhilePaused = (await progress()).running + (await progress()).done - (paused.running + paused.done);
    await run.handle.signal(resumeSignal);

    await waitUntil(() => sandboxProcesses() > 0, 120_000, 'an execution in the sandbox');
    sandboxesBeforeCancel = sandboxProcesses();
    await run.handle.cancel();
    await run.handle.result().catch(() => undefined);
    status = (await run.handle.describe()).status.name;
    await waitUntil(() => sandboxProcesses() === 0, 30_000, 'sandboxes disposed after cancel');
  }, 240_000);
  afterAll(async () => {
    await workers?.shutdown();
    await running;
    await env?.close();
  });

  it('pause stops new tasks from starting', () => {
    expect(paused.paused).toBe(true);
    expect(paused.pauseReason).toBe('operator pause');
    expect(startedWhilePaused).toBe(0);
  });

  it('cancel ends the run and its tasks, disposing the sandboxes they were running', async () => {
    expect(sandboxesBeforeCancel).toBeGreaterThan(0);
    expect(status).toBe('CANCELLED');
    expect(sandboxProcesses()).toBe(0);
    const taskStatus = (await env.client.workflow.getHandle(`${run.runId}/task/39604`).describe()).status.name;
    expect(taskStatus).toBe('CANCELLED');
    const result = JSON.parse(readFileSync(path.join(run.runDir, 'results', '39604.json'), 'utf8'));
    expect(result.failure.class).toBe('cancelled');
  });
});
