import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunProgress } from '../../contracts/run';
import type { ScriptedRequest } from '../../lib/scriptedLlm';
import { copyInputReply } from '../helpers/copyInput';
import {
  startBenchmarkRun,
  startE2E,
  workerProcessEnv,
  type E2EEnv,
  type StartedRun,
  FAST_FAILOVER,
} from '../helpers/e2e';
import { DEV20 } from '../helpers/datasets';
import { onCluster } from '../helpers/cluster';
import { waitUntil, within } from '../helpers/wait';
import { spawnWorker, type WorkerProcess } from '../helpers/workerProcess';

const TASK = '39604';
const CAP_USD = 60;
const PRICE = { inputPerMTok: 1_000, outputPerMTok: 1_000 };

/** The run's response cache entries (`llm-cache/<2 hex>/<key>.json`). */
function cacheEntries(runDir: string): string[] {
  const dir = path.join(runDir, 'llm-cache');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((d) => readdirSync(path.join(dir, d)).filter((f) => f.endsWith('.json')));
}

/**
 * The chaos suite's window, made certain: a kill -9 after the worker has the model's reply in the response cache and
 * before the activity's result reaches the Temporal server. The server is stopped (SIGSTOP) before the reply is let
 * go, so the worker can cache it but cannot complete the activity; the worker is then killed and the server resumed.
 * The activity's next attempt finds the reply in the cache: the run ledger must record its cost with its tokens, once
 * (before, it recorded the tokens at no cost: `costUsd` 0 against tokens × price).
 */
const title = 'a kill -9 between the reply cached and the activity result recorded';
const onClusterNote = " (skipped: the cluster's server is not this test's to stop)";
describe.skipIf(onCluster)(`${title}${onCluster ? onClusterNote : ''}`, () => {
  let env: E2EEnv;
  let run: StartedRun;
  let final: RunProgress;
  let worker: WorkerProcess | undefined;
  let release: () => void = () => undefined;
  const released = new Promise<void>((r) => (release = r));
  let arrived = false;

  beforeAll(async () => {
    const heldReply = async (request: ScriptedRequest) => {
      arrived = true;
      await released;
      return copyInputReply(request);
    };
    env = await startE2E(
      { rules: [], fallback: heldReply },
      {
        // Paused (SIGSTOP) mid-run: a server of its own.
        devServer: { own: true },
        config: {
          ...FAST_FAILOVER,
          run: { concurrency: 1, budgetUsd: CAP_USD },
          llm: { prices: { 'scripted-model': PRICE } },
          recalc: { engine: 'none' },
        },
      },
    );
    run = await startBenchmarkRun(env, { dataset: DEV20, tasks: [TASK] });
    const workerEnv = workerProcessEnv(env);
    worker = spawnWorker(workerEnv);
    await within(worker.ready, 60_000, 'the worker to be ready');
    await waitUntil(() => arrived, 120_000, 'the model request to arrive');
    const serverPid = env.temporal.server.pid;
    process.kill(serverPid, 'SIGSTOP');
    try {
      release();
      await waitUntil(() => cacheEntries(run.runDir).length === 1, 60_000, 'the reply in the response cache');
      worker.crash();
      await within(worker.exited, 15_000, 'the killed worker to exit');
    } finally {
      process.kill(serverPid, 'SIGCONT');
    }
    worker = spawnWorker(workerEnv);
    await within(worker.ready, 60_000, 'a new worker to be ready');
    final = (await within(run.handle.result(), 180_000, 'the run to finish')) as RunProgress;
  }, 360_000);

  afterAll(async () => {
    worker?.crash();
    await env?.close();
  });

  it('asked the model once: the retried activity was answered from the cache', () => {
    expect(env.llm.log.map((e) => e.status)).toEqual([200]);
    expect(final.done).toBe(1);
  });

  it('settled the call through the run ledger with its cost and its tokens together, once', () => {
    expect(final.llmCalls).toBe(1);
    expect(final.usage.inputTokens + final.usage.outputTokens).toBeGreaterThan(0);
    expect(final.costUsd).toBeCloseTo(
      ((final.usage.inputTokens + final.usage.outputTokens) * PRICE.inputPerMTok) / 1e6,
      6,
    );
    expect(final.costUsd).toBeLessThanOrEqual(CAP_USD);
    expect(final.reservedUsd).toBe(0);
  });
});
