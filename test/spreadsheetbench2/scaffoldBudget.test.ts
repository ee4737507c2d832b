/**
 * Budgets apply to the scaffold's model calls: with a per-task dollar budget that the first call uses up, the episode
 * makes no second call, ends (`exit_error`, failure class `budget`) and the task is still recorded and scored.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToEnd, startBenchmarkRun, startE2E, type E2EEnv, type StartedRun } from '../helpers/e2e';
import { hasSandboxPython, runPython } from '../scoring/oracle';
import { scaffoldScript } from '../helpers/scaffoldScript';
import { v2TaskResultSchema } from '../../benchmarks/spreadsheetbench2';
import { episodeRecordSchema } from '../../benchmarks/spreadsheetbench2/scaffold/episodeFiles';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'sb2-budget-'));

describe.skipIf(!hasSandboxPython)('the scaffold under a task budget', () => {
  let env: E2EEnv;
  let run: StartedRun;

  beforeAll(async () => {
    runPython([path.resolve('test/spreadsheetbench2/fixtures/make_v2_tasks.py'), tmp], '');
    env = await startE2E(scaffoldScript({ answerPath: '/nonexistent', repoDir: '/nonexistent', hostUrl: '' }), {
      config: {
        run: { concurrency: 1, taskBudgetUsd: 0.01 },
        // About 1,000 prompt tokens a call: the first call costs about $1.
        llm: { prices: { 'scripted-model': { inputPerMTok: 1_000, outputPerMTok: 1_000 } } },
        recalc: { engine: 'none' },
      },
    });
    run = await startBenchmarkRun(env, { dataset: path.join(tmp, 'data'), agent: 'swe_agent', tasks: ['tpl0'] });
    await runToEnd(env, run);
  }, 300_000);
  afterAll(async () => {
    await env?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('stopped after the call that used the budget up, and recorded the task', () => {
    expect(env.llm.log.filter((e) => e.answered)).toHaveLength(1);
    const r = v2TaskResultSchema.parse(JSON.parse(readFileSync(path.join(run.runDir, 'results', 'tpl0.json'), 'utf8')));
    expect(r.failure?.class).toBe('budget');
    expect(r.failure?.message).toContain('task budget $0.01 reached');
    const episode = episodeRecordSchema.parse(
      JSON.parse(readFileSync(path.join(run.runDir, 'tasks', 'tpl0', 'scaffold', 'episode.json'), 'utf8')),
    );
    expect(episode).toMatchObject({ exitStatus: 'exit_error', modelCalls: 1 });
    expect(r.llmCalls).toBe(1);
    expect(r.v2?.interactionTurns).toBe(1);
    expect(r.costUsd).toBeGreaterThan(0.01);
    expect(r.v2?.accuracy).toBe(0);
  });
});
