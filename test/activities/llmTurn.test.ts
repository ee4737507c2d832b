import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockActivityEnvironment } from '@temporalio/testing';
import { ApplicationFailure } from '@temporalio/common';
import type { Config } from '../../config/schema';
import { llmTurnActivities, type LlmTurnInput, type LlmTurnResult } from '../../activities/spreadsheetbench/llmTurn';
import { startScriptedServer, type ScriptedServer } from '../../lib/scriptedLlm';
import { createSampleRun, scriptedModelConfig } from '../helpers/sampleRun';

describe('llmTurn activity: one retry policy, classified failures, no double payment', () => {
  let llm: ScriptedServer;
  let config: Config;
  let runDir: string;

  beforeAll(async () => {
    llm = await startScriptedServer({ script: { rules: [], fallback: '```python\nprint(1)\n```' } });
    config = scriptedModelConfig(llm.url);
    runDir = await createSampleRun(config, 'single', 'llmturn', 'sb-llmturn-');
  });
  afterAll(async () => llm?.close());

  const turn = (callKey: string): LlmTurnInput => ({
    runDir,
    taskId: '1001',
    conversation: 'main',
    turn: 0,
    user: { officialPrompt: 'single' },
    callKey,
  });
  /**
   * `failures`: the failure counts earlier attempts left in their heartbeat details. `execution`: the activity's
   * execution (workflow run and activity id, the same in all its attempts; by default one per call key).
   */
  const run = (
    input: LlmTurnInput,
    failures?: Record<string, number>,
    execution: { runId: string; activityId: string } = { runId: 'run-1', activityId: input.callKey },
  ): Promise<LlmTurnResult> =>
    new MockActivityEnvironment({
      attempt: 1 + Object.values(failures ?? {}).reduce((a, b) => a + b, 0),
      heartbeatDetails: failures ? { failures } : undefined,
      workflowExecution: { workflowId: 'llmturn/task/1001', runId: execution.runId },
      activityId: execution.activityId,
    }).run<[LlmTurnInput], LlmTurnResult, (input: LlmTurnInput) => Promise<LlmTurnResult>>(
      llmTurnActivities({
        config,
        sandboxFactory: async () => {
          throw new Error('unused');
        },
      }).llmTurn,
      input,
    );
  const failureOf = (p: Promise<unknown>) =>
    p.then(
      () => {
        throw new Error('expected a failure');
      },
      (err: unknown) => err as ApplicationFailure,
    );

  it('records both messages, prices the call, and answers a repeated call from the cache', async () => {
    const first = await run(turn('k/1'));
    expect(first.cached).toBe(false);
    expect(first.costUsd).toBeCloseTo((first.usage.inputTokens * 2 + first.usage.outputTokens * 4) / 1e6, 12);
    const conv = JSON.parse(readFileSync(path.join(runDir, 'tasks', '1001', 'conversations', 'main.json'), 'utf8'));
    expect(conv.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(conv[0].content).toContain('### spreadsheet_content\nSheet Name: Sales');
    const requests = llm.log.length;
    // Another activity execution of the same call (a task rerun): the first one's result carried the cost.
    const again = await run(turn('k/1'), undefined, { runId: 'run-2', activityId: 'k/1' });
    expect(again).toMatchObject({ cached: true, costUsd: 0, text: first.text });
    expect(llm.log.length).toBe(requests);
  });

  it('a retry after the attempt that received the reply was lost (kill -9) carries its cost with its tokens', async () => {
    // Attempt 1 received the reply and cached it; its worker died before the result reached the workflow.
    const lost = await run(turn('k/lost'));
    const requests = llm.log.length;
    // Attempt 2 of the same activity execution: answered from the cache, and its result is the only one recorded.
    const retry = await run(turn('k/lost'), { timeout: 1 });
    expect(llm.log.length).toBe(requests);
    expect(retry.text).toBe(lost.text);
    expect(retry.usage).toEqual(lost.usage);
    expect(retry.cached).toBe(false);
    expect(retry.costUsd).toBeCloseTo((retry.usage.inputTokens * 2 + retry.usage.outputTokens * 4) / 1e6, 12);
    expect(retry.costUsd).toBe(lost.costUsd);
  });

  it('turns a 429 into a retryable failure whose next delay is the Retry-After', async () => {
    llm.inject({ kind: 'rate_limit', retryAfterSeconds: 3 });
    const f = await failureOf(run(turn('k/2')));
    expect(f).toBeInstanceOf(ApplicationFailure);
    expect(f.type).toBe('Llm.rate_limit');
    expect(f.nonRetryable).toBe(false);
    expect(f.nextRetryDelay).toBe(3000);
  });

  it('stops at once on a wrong key, and after the configured attempts on 5xx', async () => {
    llm.inject({ kind: 'status', status: 401, message: 'bad key' });
    const auth = await failureOf(run(turn('k/3')));
    expect([auth.type, auth.nonRetryable]).toEqual(['Llm.auth', true]);
    llm.inject({ kind: 'server_error' }, 3);
    const early = await failureOf(run(turn('k/4')));
    expect([early.type, early.nonRetryable]).toEqual(['Llm.provider_5xx', false]);
    // Earlier attempts failed for other reasons (a lost worker, timeouts): they do not use up the 5xx limit.
    const mixed = await failureOf(run(turn('k/4'), { timeout: 2, provider_5xx: 1 }));
    expect([mixed.type, mixed.nonRetryable]).toEqual(['Llm.provider_5xx', false]);
    const last = await failureOf(run(turn('k/4'), { provider_5xx: config.llm.retryLimits.provider_5xx! - 1 }));
    expect([last.type, last.nonRetryable]).toEqual(['Llm.provider_5xx', true]);
    expect(last.message).toContain('failure 4 of 4');
  });
});
