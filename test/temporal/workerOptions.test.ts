import { describe, expect, it } from 'vitest';
import { configSchema } from '../../config/schema';
import { workerOptions } from '../../workers/createWorkers';

describe("the main worker's Temporal options come from the config", () => {
  it('by default: 64 activity slots, everything else left to the SDK', () => {
    expect(workerOptions(configSchema.parse({}).worker)).toEqual({ maxConcurrentActivityTaskExecutions: 64 });
  });

  it('passes what is set, the sticky timeout in milliseconds', () => {
    const worker = {
      maxCachedWorkflows: 500,
      maxConcurrentWorkflowTaskPolls: 4,
      maxConcurrentActivityTaskPolls: 1,
      stickyQueueScheduleToStartTimeoutMs: 3000,
    };
    expect(workerOptions(configSchema.parse({ worker }).worker)).toEqual({
      maxCachedWorkflows: 500,
      maxConcurrentWorkflowTaskPolls: 4,
      maxConcurrentActivityTaskPolls: 1,
      maxConcurrentActivityTaskExecutions: 64,
      stickyQueueScheduleToStartTimeout: 3000,
    });
  });

  it('refuses a workflow cache no larger than the run concurrency, naming the setting', () => {
    const parsed = configSchema.safeParse({ worker: { maxCachedWorkflows: 32 }, run: { concurrency: 32 } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['worker.maxCachedWorkflows', expect.stringContaining('above run.concurrency (32)')],
    ]);
    expect(configSchema.safeParse({ worker: { maxCachedWorkflows: 33 }, run: { concurrency: 32 } }).success).toBe(true);
  });

  it('refuses fewer than 2 workflow pollers (the SDK would throw at start-up)', () => {
    expect(configSchema.safeParse({ worker: { maxConcurrentWorkflowTaskPolls: 1 } }).success).toBe(false);
  });
});
