import { z } from 'zod';

/**
 * The main worker's Temporal options. Chosen by bench/run-912-synthetic.ts (`--config '{"worker":{...}}'`); see the
 * README's bench section.
 */
export const workerConfigSchema = z
  .strictObject({
    maxCachedWorkflows: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe(
        'Workflows kept in memory between their tasks; must exceed run.concurrency (evicted workflows replay ' +
          "in full). Unset: the SDK's default from the heap size.",
      ),
    maxConcurrentWorkflowTaskExecutions: z
      .number()
      .int()
      .min(2)
      .optional()
      .describe("Workflow tasks running at once in one worker. Unset: the SDK's default."),
    maxConcurrentWorkflowTaskPolls: z
      .number()
      .int()
      .min(2)
      .optional()
      .describe("Pollers of the workflow task queue. Unset: the SDK's default, min(10, slots)."),
    maxConcurrentActivityTaskPolls: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("Pollers of the activity task queue. Unset: the SDK's default, min(10, slots)."),
    maxConcurrentActivityTaskExecutions: z
      .number()
      .int()
      .positive()
      .default(64)
      .describe('Activities running at once in one worker (LLM calls waiting on the model count too).'),
    stickyQueueScheduleToStartTimeoutMs: z
      .number()
      .int()
      .positive()
      .optional()
      .describe(
        "A workflow task not picked up from this worker's sticky queue within this goes to any worker (after " +
          "a crash). Unset: the SDK's 10 s.",
      ),
  })
  .describe("The main worker's Temporal options (workflows and their activities on one task queue).");
