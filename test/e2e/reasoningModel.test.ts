import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunProgress } from '../../contracts/run';
import { replyOf, type ScriptRule, type ScriptedRequest } from '../../lib/scriptedLlm';
import { readTaskResult, runToEnd, startBenchmarkRun, startE2E, type E2EEnv, type StartedRun } from '../helpers/e2e';
import { DEV20 } from '../helpers/datasets';
import { DEV20_SOLUTIONS } from '../helpers/scriptedSolutions';

const TASKS = ['39604', '79-7', '599-9'];
const REASONING = 'Let me look at the sheet before writing code.';

/** The dev20 solutions, each reply with reasoning text beside it (as DeepSeek/OpenRouter return it). */
function withReasoning(rule: ScriptRule): ScriptRule {
  return {
    ...rule,
    reply: async (r: ScriptedRequest) => ({ ...(await replyOf(rule.reply!, r)), reasoning: REASONING }),
  };
}

async function runStrict(model: string): Promise<{ env: E2EEnv; run: StartedRun; final: RunProgress }> {
  const env = await startE2E(
    {
      rules: Object.values(DEV20_SOLUTIONS).map(withReasoning),
      strictReasoning: { models: /^(gpt-5|my-reasoning-deployment)/, reasoningTokens: 100 },
    },
    {
      config: {
        llm: {
          model,
          maxTokens: 4_000,
          temperature: 0.2,
          prices: { [model]: { inputPerMTok: 1.25, outputPerMTok: 10 } },
        },
        run: { concurrency: 1 },
      },
    },
  );
  const run = await startBenchmarkRun(env, { dataset: DEV20, tasks: TASKS, agent: 'row_react_exec' });
  const final = await runToEnd(env, run);
  return { env, run, final };
}

function cachedReplies(runDir: string): Array<{ response: { adjustments?: string[]; reasoning?: string } }> {
  const dir = path.join(runDir, 'llm-cache');
  return readdirSync(dir).flatMap((sub) =>
    readdirSync(path.join(dir, sub)).map((f) => JSON.parse(readFileSync(path.join(dir, sub, f), 'utf8'))),
  );
}

/**
 * A GPT-5-named model with `maxTokens` and `temperature` set, against a server that refuses `max_tokens` and any
 * temperature but 1 as OpenAI does: the capability table sends `max_completion_tokens` and leaves temperature out.
 */
describe('a GPT-5 model with maxTokens and temperature against the strict scripted server', () => {
  let env: E2EEnv;
  let run: StartedRun;
  let final: RunProgress;

  beforeAll(async () => {
    ({ env, run, final } = await runStrict('gpt-5'));
  }, 300_000);
  afterAll(async () => env?.close());

  it('completes every task with its verdict, and no request is refused', () => {
    console.log(
      `gpt-5 strict: ${final.done}/${TASKS.length} tasks done, ${final.failed} failed, ${env.llm.log.length} requests, ` +
        `${env.llm.log.filter((e) => e.status !== 200).length} refused, ${final.usage.outputTokens} output tokens for ${final.llmCalls} calls`,
    );
    expect(final.done).toBe(TASKS.length);
    expect(final.failed).toBe(0);
    expect(readTaskResult(run.runDir, '39604').testCaseResults).toEqual([1, 1, 1]);
    expect(readTaskResult(run.runDir, '79-7').testCaseResults).toEqual([1, 1, 1]);
    expect(env.llm.log.filter((e) => e.status !== 200)).toEqual([]);
  });

  it('counts the reasoning tokens as output and keeps the reasoning text in the transcript', () => {
    expect(final.usage.outputTokens).toBeGreaterThanOrEqual(100 * final.llmCalls);
    const main = JSON.parse(
      readFileSync(path.join(run.runDir, 'tasks', '39604', 'conversations', 'main.json'), 'utf8'),
    ) as Array<{ role: string; reasoning?: string }>;
    expect(main.filter((m) => m.role === 'assistant').every((m) => m.reasoning === REASONING)).toBe(true);
  });
});

/** A deployment name the table does not know (Azure): refused once per field, retried, recorded, then learned. */
describe('a reasoning deployment outside the capability table', () => {
  let env: E2EEnv;
  let run: StartedRun;
  let final: RunProgress;

  beforeAll(async () => {
    ({ env, run, final } = await runStrict('my-reasoning-deployment'));
  }, 300_000);
  afterAll(async () => env?.close());

  it('completes every task; the two refusals are retried once each and not repeated', () => {
    console.log(
      `my-reasoning-deployment strict: ${final.done}/${TASKS.length} tasks done, ${final.failed} failed, ` +
        `${env.llm.log.length} requests, ${env.llm.log.filter((e) => e.status === 400).length} refused`,
    );
    expect(final.done).toBe(TASKS.length);
    expect(final.failed).toBe(0);
    const refused = env.llm.log.filter((e) => e.status === 400);
    expect(refused.map((e) => e.fault)).toEqual(['strict_reasoning', 'strict_reasoning']);
    expect(env.llm.log.filter((e) => e.answered)).toHaveLength(final.llmCalls);
  });

  it("records the change in the call's record", () => {
    const adjusted = cachedReplies(run.runDir).filter((c) => c.response.adjustments);
    expect(adjusted).toHaveLength(1);
    expect(adjusted[0].response.adjustments).toEqual([
      expect.stringContaining('max_tokens sent as max_completion_tokens'),
      expect.stringContaining('temperature left out'),
    ]);
  });
});
