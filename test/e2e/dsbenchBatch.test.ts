import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duplicatesAnswered } from '../../lib/scriptedLlm';
import type { RunProgress } from '../../contracts/run';
import { readBatchStatuses } from '../../client/batchStatus';
import { serveWith, startBenchmarkRun, startE2E, type E2EEnv, type StartedRun } from '../helpers/e2e';
import { DSBENCH_SAMPLE_SCRIPT } from '../helpers/dsbenchScript';

const SAMPLE = path.resolve(__dirname, '../../data/dsbench-sample');

/**
 * `run --batch` on DSBench model-only (the generated sample's 7 questions): the answers go in one batch of the
 * answering model, the judgments in one of the judge model; against the same run without batches: half the cost,
 * the same verdicts.
 */
describe('run --batch on DSBench model-only, the judge included', () => {
  let env: E2EEnv;
  const runs: Record<string, StartedRun> = {};
  const finals: Record<string, RunProgress> = {};

  beforeAll(async () => {
    env = await startE2E(
      { ...DSBENCH_SAMPLE_SCRIPT, batch: { delayMs: 500 } },
      {
        config: {
          recalc: { engine: 'none' },
          llm: { model: 'gpt-4o-mini', batch: { maxRequests: 7, windowMs: 600_000, pollIntervalMs: 300 } },
          run: { concurrency: 8 },
        },
      },
    );
    runs.plain = await startBenchmarkRun(env, { dataset: SAMPLE, agent: 'model-only', runId: 'ds-plain' });
    runs.batch = await startBenchmarkRun(env, { dataset: SAMPLE, agent: 'model-only', runId: 'ds-batch', batch: true });
    const serving = await serveWith(env);
    try {
      for (const name of ['plain', 'batch']) finals[name] = (await runs[name].handle.result()) as RunProgress;
    } finally {
      await serving.stop();
    }
  }, 400_000);
  afterAll(async () => env?.close());

  const verdicts = (run: StartedRun) =>
    Object.fromEntries(
      readdirSync(path.join(run.runDir, 'results')).map((f) => [
        f,
        (JSON.parse(readFileSync(path.join(run.runDir, 'results', f), 'utf8')) as { verdict: string }).verdict,
      ]),
    );

  it('sends the 7 answers in one batch and the 7 judgments in another, nothing singly', async () => {
    const statuses = await readBatchStatuses(runs.batch.runDir);
    expect(statuses.map((s) => [s.status, s.calls, s.completed])).toEqual([
      ['completed', 7, 7],
      ['completed', 7, 7],
    ]);
    const log = env.llm.log.filter((e) => e.callKey?.startsWith('ds-batch/'));
    expect(log.filter((e) => e.answered && !e.batchId)).toHaveLength(0);
    const models = (kind: string) => new Set(log.filter((e) => e.callKey?.endsWith(`/${kind}`)).map((e) => e.model));
    expect(models('answer')).toEqual(new Set(['gpt-4o-mini']));
    expect(models('judge')).toEqual(new Set(['gpt-4o-2024-05-13']));
    expect(duplicatesAnswered(env.llm.log)).toEqual([]);
  });

  it('costs half of the run without batches and judges the same', () => {
    expect(finals.batch.done).toBe(7);
    expect(verdicts(runs.batch)).toEqual(verdicts(runs.plain));
    expect(finals.plain.costUsd).toBeGreaterThan(0);
    expect(finals.batch.costUsd).toBeCloseTo(finals.plain.costUsd / 2, 10);
    console.log(`DSBench batch: cost $${finals.batch.costUsd} vs $${finals.plain.costUsd} without batches`);
  });
});
