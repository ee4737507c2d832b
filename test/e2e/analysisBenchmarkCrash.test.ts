import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duplicatesAnsweredApartFromKills } from '../../lib/scriptedLlm';
import { loadAnalysisSuite } from '../../benchmarks/analysis/dataset';
import type { AnalysisRequestResult } from '../../benchmarks/analysis/result';
import type { RunProgress } from '../../contracts/run';
import {
  startBenchmarkRun,
  startE2E,
  workerProcessEnv,
  type E2EEnv,
  type StartedRun,
  FAST_FAILOVER,
} from '../helpers/e2e';
import { referenceAnalyst } from '../helpers/referenceAnalyst';
import { waitUntil } from '../helpers/wait';
import { crashAndRespawn, spawnWorker, workerKillTimes, type WorkerProcess } from '../helpers/workerProcess';

const SUITE = path.resolve(__dirname, '../../data/analysis');
const TASKS = ['a01', 'a02'];

/** kill -9 of the worker in the middle of the requests' turns: the same conversations finish, no model call paid twice. */
describe('an analysis benchmark run survives its worker being killed mid-turn', () => {
  let env: E2EEnv;
  let run: StartedRun;
  let worker: WorkerProcess;
  let final: RunProgress;
  let answeredAtCrash = 0;

  beforeAll(async () => {
    const suite = await loadAnalysisSuite(SUITE);
    env = await startE2E(
      { rules: [], fallback: referenceAnalyst(suite.dir, suite.tasks, ''), latencyMs: 1_500 },
      { config: { ...FAST_FAILOVER, recalc: { engine: 'none' } } },
    );
    worker = spawnWorker(workerProcessEnv(env));
    await worker.ready;
    run = await startBenchmarkRun(env, { dataset: SUITE, agent: 'react', tasks: TASKS });
    const answered = () => env.llm.log.filter((e) => e.answered).length;
    await waitUntil(() => answered() >= 2, 120_000, 'two answered model calls');
    worker = await crashAndRespawn(worker, workerProcessEnv(env));
    answeredAtCrash = answered();
    final = (await run.handle.result()) as RunProgress;
  }, 400_000);
  afterAll(async () => {
    worker?.crash();
    await env?.close();
  });

  const result = (id: string) =>
    JSON.parse(readFileSync(path.join(run.runDir, 'results', `${id}.json`), 'utf8')) as AnalysisRequestResult;

  it('crashed with turns unfinished, and every request still passes', () => {
    expect(answeredAtCrash).toBeGreaterThanOrEqual(2);
    expect(answeredAtCrash).toBeLessThan(env.llm.log.filter((e) => e.answered).length);
    expect(final.done).toBe(2);
    for (const id of TASKS) expect(result(id)).toMatchObject({ status: 'scored', turnStatus: 'completed', pass: true });
  });

  it('kept one conversation per request with one turn each, and no model call was answered twice', () => {
    const conversations = readdirSync(path.join(run.runDir, 'conversations'));
    expect(conversations).toHaveLength(TASKS.length);
    for (const c of conversations) {
      const events = readFileSync(path.join(run.runDir, 'conversations', c, 'events.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string });
      expect(events.filter((e) => e.type === 'turn_started')).toHaveLength(1);
      expect(events.filter((e) => e.type === 'turn_ended')).toHaveLength(1);
    }
    expect(duplicatesAnsweredApartFromKills(env.llm.log, workerKillTimes())).toEqual([]);
  });
});
