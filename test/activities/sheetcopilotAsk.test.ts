import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockActivityEnvironment } from '@temporalio/testing';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import type { Config } from '../../config/schema';
import {
  sheetCopilotActivities,
  type CopilotAskInput,
  type CopilotAskOutput,
} from '../../activities/spreadsheetbench/sheetcopilot';
import { MODEL_CALL_HEARTBEAT_MS } from '../../activities/llm/modelCall';
import type { ObserveOutput } from '../../benchmarks/spreadsheetbench/agents/sheetcopilot/stages';
import { startScriptedServer, type ScriptedServer } from '../../lib/scriptedLlm';
import { createSampleRun, scriptedModelConfig } from '../helpers/sampleRun';

/** SheetCopilot's LLM stages call the model through the one path (activities/llm/modelCall.ts), like every benchmark. */
describe('copilotAsk: the one model-call path (heartbeat interval, per-class retry limits, cancellation)', () => {
  let llm: ScriptedServer;
  let config: Config;
  let runDir: string;

  beforeAll(async () => {
    llm = await startScriptedServer({ script: { rules: [], fallback: '## Goal\nsum the column' } });
    config = scriptedModelConfig(llm.url);
    runDir = await createSampleRun(config, 'sheetcopilot', 'copilot', 'sb-copilot-ask-');
    // Stage 1 (the observation program) runs in a sandbox; its recorded output is all stage 2 reads.
    const observe: ObserveOutput = {
      stage: 'observe',
      testCase: 1,
      success: true,
      text: '=== ANSWER POSITION CURRENT CONTENT ===\nD2: None',
      paths: { input: '/data/1_1001_input.xlsx', output: '/outputs/1_1001_output.xlsx' },
    };
    const stages = path.join(runDir, 'tasks', '1001', 'stages');
    mkdirSync(stages, { recursive: true });
    writeFileSync(path.join(stages, '1-observe.json'), JSON.stringify(observe));
  });
  afterAll(async () => llm?.close());

  const understand = (callKey: string): CopilotAskInput => ({
    runDir,
    taskId: '1001',
    stage: 'understand',
    callKey,
  });
  /** `execution`: the activity's workflow run and activity id, the same in all its attempts. */
  const environment = (failures?: Record<string, number>, execution = { runId: 'run-1', activityId: '1' }) =>
    new MockActivityEnvironment({
      attempt: 1 + Object.values(failures ?? {}).reduce((a, b) => a + b, 0),
      heartbeatDetails: failures ? { failures } : undefined,
      workflowExecution: { workflowId: 'copilot/task/1001', runId: execution.runId },
      activityId: execution.activityId,
    });
  const ask = (env: MockActivityEnvironment, input: CopilotAskInput): Promise<CopilotAskOutput> =>
    env.run<[CopilotAskInput], CopilotAskOutput, (i: CopilotAskInput) => Promise<CopilotAskOutput>>(
      sheetCopilotActivities({
        config,
        sandboxFactory: async () => {
          throw new Error('unused');
        },
      }).copilotAsk,
      input,
    );
  const failureOf = (p: Promise<unknown>) =>
    p.then(
      () => {
        throw new Error('expected a failure');
      },
      (err: unknown) => err as Error,
    );

  it('heartbeats every MODEL_CALL_HEARTBEAT_MS while a slow reply is awaited, carrying the failure counts', async () => {
    const env = environment();
    const beats: { at: number; details: unknown }[] = [];
    const started = Date.now();
    env.on('heartbeat', (details: unknown) => beats.push({ at: Date.now() - started, details }));
    const slowMs = 3 * MODEL_CALL_HEARTBEAT_MS;
    llm.inject({ kind: 'slow', delayMs: slowMs });
    const output = await ask(env, understand('copilot/1001/understand/slow'));
    expect(output.stage).toBe('understand');
    // One at the start, then one per interval: at least 3 within the slow reply (the old code beat every 5 s, with
    // the interval 2000 sent as the heartbeat's details).
    expect(beats.length).toBeGreaterThanOrEqual(3);
    for (const beat of beats) expect(beat.details).toEqual({ failures: {} });
    const gaps = beats.slice(1).map((b, i) => b.at - (beats[i]?.at ?? 0));
    for (const gap of gaps.slice(0, 2)) expect(gap).toBeLessThan(MODEL_CALL_HEARTBEAT_MS + 1_500);
  });

  it('prices the reply and answers a repeated call from the run cache', async () => {
    const first = (await ask(environment(), understand('copilot/1001/understand/0'))) as { stage: 'understand' } & {
      exchange: { cached: boolean; costUsd: number; usage: { inputTokens: number; outputTokens: number } };
    };
    expect(first.exchange.cached).toBe(false);
    const { usage } = first.exchange;
    expect(first.exchange.costUsd).toBeCloseTo((usage.inputTokens * 2 + usage.outputTokens * 4) / 1e6, 12);
    const requests = llm.log.length;
    // Another execution of the stage (a rerun): the first one's result carried the cost.
    const again = await ask(
      environment(undefined, { runId: 'run-2', activityId: '1' }),
      understand('copilot/1001/understand/0'),
    );
    expect(again).toMatchObject({ exchange: { cached: true, costUsd: 0 } });
    // A retry of the first execution (its result lost to a kill -9): its result carries the cost, from the cache.
    const retry = await ask(environment({ timeout: 1 }), understand('copilot/1001/understand/0'));
    expect(retry).toMatchObject({ exchange: { cached: false, costUsd: first.exchange.costUsd, usage } });
    expect(llm.log.length).toBe(requests);
  });

  it('stops a 5xx after the configured attempts of that class (llm.retryLimits), not before', async () => {
    const limit = config.llm.retryLimits.provider_5xx!;
    llm.inject({ kind: 'server_error' });
    const early = (await failureOf(
      ask(environment(), understand('copilot/1001/understand/5xx')),
    )) as ApplicationFailure;
    expect([early.type, early.nonRetryable]).toEqual(['Llm.provider_5xx', false]);
    llm.inject({ kind: 'server_error' });
    const last = (await failureOf(
      ask(environment({ provider_5xx: limit - 1 }), understand('copilot/1001/understand/5xx')),
    )) as ApplicationFailure;
    expect([last.type, last.nonRetryable]).toEqual(['Llm.provider_5xx', true]);
    expect(last.message).toContain(`failure ${limit} of ${limit}`);
  });

  it('a cancelled stage aborts its request and ends as the cancellation, not as a retryable model failure', async () => {
    const env = environment();
    llm.inject({ kind: 'slow', delayMs: 60_000 });
    const started = Date.now();
    const pending = failureOf(ask(env, understand('copilot/1001/understand/cancelled')));
    setTimeout(() => env.cancel(), 500);
    const err = await pending;
    expect(err).toBeInstanceOf(CancelledFailure);
    expect(err).not.toBeInstanceOf(ApplicationFailure);
    expect(Date.now() - started).toBeLessThan(30_000); // the cancel ended it, not the 60 s reply
  });
});
