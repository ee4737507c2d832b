import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createRun, planRun } from '../../client/createRun';
import { batchedReply } from '../../activities/llm/batchedCall';
import { payerOfThisActivity } from '../../activities/llm/payer';
import { sheetRun } from '../../benchmarks/spreadsheetbench/run';
import { cacheKeyOf, ResponseCache } from '../../lib/llm/responseCache';
import type { ChatRequest, ChatResponse } from '../../lib/llm/types';
import type { Config } from '../../config/schema';
import type { WorkerDeps } from '../../activities/deps';
import { SAMPLE } from '../helpers/datasets';
import { scriptedModelConfig } from '../helpers/sampleRun';

const request: ChatRequest = { model: 'scripted', messages: [{ role: 'user', content: 'solve task 1001' }] };
const CALL_KEY = 'batch-charge/1001/solve/0';
const batchReply: ChatResponse = {
  text: 'answer',
  finishReason: 'stop',
  usage: { inputTokens: 1_000, outputTokens: 500 },
  model: 'scripted',
  cached: false,
  batchId: 'batch_1',
};

/**
 * A batch's reply is charged (at the batch rate) to the first activity that reads it, once — and to a later attempt of
 * that same activity when the one that claimed it was killed before its result (with the cost) reached the workflow.
 */
describe("run --batch: a batch reply's charge after a kill -9", () => {
  let config: Config;
  let runDir: string;
  let cache: ResponseCache;

  beforeAll(async () => {
    config = scriptedModelConfig('http://127.0.0.1:9');
    runDir = mkdtempSync(path.join(os.tmpdir(), 'sb-batch-charge-'));
    await createRun(config, await planRun({ datasetDir: SAMPLE, agent: 'single' }), {
      runDir,
      runId: 'batch-charge',
      batch: true,
    });
    cache = new ResponseCache((await sheetRun(runDir)).layout.llmCacheDir);
    cache.put(cacheKeyOf(request, CALL_KEY), batchReply); // as the batch's collector stores it
  });

  /** batchedReply in an attempt of the activity execution `activityId` of the task workflow. */
  const read = (activityId: string, attempt: number): Promise<ChatResponse | undefined> =>
    new MockActivityEnvironment({
      workflowExecution: { workflowId: 'batch-charge/task/1001', runId: 'run-1' },
      activityId,
      attempt,
    }).run(async () => {
      const deps: WorkerDeps = {
        config,
        sandboxFactory: () => Promise.reject(new Error('no sandbox in this test')),
      };
      return batchedReply(deps, await sheetRun(runDir), cache, request, CALL_KEY, payerOfThisActivity());
    });

  it('charges the first reader at the batch rate and records it as the claim', async () => {
    const first = await read('5', 1);
    expect(first).toMatchObject({ cached: false, priceFactor: config.llm.batch.priceFactor, usage: batchReply.usage });
    const claim = readFileSync(`${cache.pathOf(cacheKeyOf(request, CALL_KEY))}.charged`, 'utf8');
    expect(claim).toBe('batch-charge/task/1001/run-1/5');
  });

  it('charges a retry of that activity again (its first attempt died before its result was recorded)', async () => {
    expect(await read('5', 2)).toMatchObject({ cached: false, priceFactor: config.llm.batch.priceFactor });
  });

  it('gives any other activity the reply as cached, at no cost', async () => {
    const other = await read('9', 1);
    expect(other?.cached).toBe(true);
    expect(other?.priceFactor).toBeUndefined();
  });
});
