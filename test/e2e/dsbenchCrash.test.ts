import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duplicatesAnsweredApartFromKills } from '../../lib/scriptedLlm';
import {
  startBenchmarkRun,
  startE2E,
  workerProcessEnv,
  type E2EEnv,
  type StartedRun,
  FAST_FAILOVER,
} from '../helpers/e2e';
import { DSBENCH_SAMPLE_SCRIPT } from '../helpers/dsbenchScript';
import { heldReply } from '../helpers/heldReply';
import { waitUntil } from '../helpers/wait';
import { spawnWorker, workerKillTimes } from '../helpers/workerProcess';
import type { RunProgress } from '../../contracts/run';

const SAMPLE = path.resolve(__dirname, '../../data/dsbench-sample');

/** kill -9 of the worker after answers came back and while their judgments are in flight (the judge is slow). */
describe('a DSBench run survives a worker crash between an answer and its judgment', () => {
  let env: E2EEnv;
  let run: StartedRun;
  let final: RunProgress;
  let answeredAtCrash: string[] = [];

  beforeAll(async () => {
    const slowJudge = heldReply(DSBENCH_SAMPLE_SCRIPT.rules.find((r) => r.name === 'judge')!.reply!, 4_000);
    const rules = DSBENCH_SAMPLE_SCRIPT.rules.map((r) => (r.name === 'judge' ? { ...r, reply: slowJudge.reply } : r));
    env = await startE2E(
      { rules },
      { config: { ...FAST_FAILOVER, recalc: { engine: 'none' }, run: { concurrency: 3 } } },
    );
    run = await startBenchmarkRun(env, { dataset: SAMPLE, agent: 'model-only' });
    const answeredKeys = () => env.llm.log.filter((e) => e.answered).map((e) => e.callKey!);
    let worker = spawnWorker(workerProcessEnv(env));
    await worker.ready;
    await waitUntil(
      () => answeredKeys().filter((k) => k.endsWith('/answer')).length >= 2,
      120_000,
      '2 answered questions',
    );
    // Let a judge call of those answers reach the (slow) judge, then crash before any of them replies.
    await waitUntil(slowJudge.arrived, 120_000, 'a judge call at the model');
    answeredAtCrash = answeredKeys();
    worker.crash();
    await worker.exited;
    slowJudge.release(); // the judge calls cut by the crash end unanswered; the calls after it are not held
    worker = spawnWorker(workerProcessEnv(env));
    await worker.ready;
    final = (await run.handle.result()) as RunProgress;
    worker.crash();
  }, 300_000);
  afterAll(async () => env?.close());

  it('crashed after an answer and before its judgment', async () => {
    const between = answeredAtCrash.filter(
      (k) => k.endsWith('/answer') && !answeredAtCrash.includes(k.replace(/\/answer$/, '/judge')),
    );
    expect(between.length).toBeGreaterThan(0);
    // The judge calls in flight at the crash were never delivered (the client was gone), so they were not paid; a held
    // call is logged when its hold ends.
    await expect.poll(() => env.llm.log.some((e) => e.callKey?.endsWith('/judge') && !e.answered)).toBe(true);
  });

  it('finished every question once; neither the answer nor the judgment was answered twice', () => {
    expect(final.done).toBe(7);
    expect(readdirSync(path.join(run.runDir, 'results'))).toHaveLength(7);
    expect(duplicatesAnsweredApartFromKills(env.llm.log, workerKillTimes())).toEqual([]);
    const answered = env.llm.log.filter((e) => e.answered).map((e) => e.callKey!);
    expect(answered.filter((k) => k.endsWith('/answer'))).toHaveLength(7);
    expect(answered.filter((k) => k.endsWith('/judge'))).toHaveLength(7);
    const summary = JSON.parse(readFileSync(path.join(run.runDir, 'summary.json'), 'utf8'));
    expect(summary.dsbench.correct).toBe(4);
  });
});
