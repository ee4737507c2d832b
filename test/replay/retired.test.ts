import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import proto from '@temporalio/proto';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const history = (name: string) =>
  proto.temporal.api.history.v1.History.decode(readFileSync(path.join(HERE, 'histories', name)));

/** When a legacy copy retires, the histories it replayed must fail with a message that names the patch they lack. */
describe('a history whose legacy path has retired', () => {
  it('fails to replay, naming the patch id it was recorded before', async () => {
    const workflowBundle = await bundleWorkflowCode({
      workflowsPath: path.join(HERE, 'retiredWorkflows.ts'),
      logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    });
    const results: { workflowId: string; error?: unknown }[] = [];
    for await (const r of Worker.runReplayHistories({ workflowBundle }, [
      { workflowId: 'v7-task', history: history('v7-single-task-39604.history.bin') },
    ]))
      results.push(r);
    expect(results).toHaveLength(1);
    expect(String(results[0].error)).toContain("recorded before patch 'spreadsheet-task-v8'");
  }, 120_000);
});
