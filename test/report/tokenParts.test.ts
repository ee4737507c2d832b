import { describe, expect, it } from 'vitest';
import { spendAndFailureLines, type RunSummary } from '../../benchmarks/report/runSummary';
import { resultFields } from '../../benchmarks/report/taskView';
import { tokenPartsText } from '../../benchmarks/report/tokenParts';
import { taskResultSchema } from '../../benchmarks/spreadsheetbench/report/schemas';

const summary = (usage: RunSummary['usage']): RunSummary => ({
  runId: 'r',
  agent: 'single',
  model: 'gpt-4o-mini',
  tasks: 2,
  scored: 2,
  failed: 0,
  overall: { tasks: 2, soft: 0.5, hard: 0.5 },
  byType: {},
  llmCalls: 3,
  usage,
  costUsd: 0.0012,
  failureClasses: {},
});

/** Cached input and reasoning output tokens are shown where tokens are, when the provider reported them. */
describe('cached and reasoning tokens where tokens are shown', () => {
  it('names the parts a usage has, none when it has none (records from before the counts)', () => {
    expect(tokenPartsText({ cachedInputTokens: 256, reasoningTokens: 64 })).toBe(' (256 cached in, 64 reasoning out)');
    expect(tokenPartsText({ reasoningTokens: 1_500 }, (n) => n.toLocaleString('en-US'))).toBe(' (1,500 reasoning out)');
    expect(tokenPartsText({})).toBe('');
    expect(tokenPartsText({ cachedInputTokens: 0, reasoningTokens: 0 })).toBe('');
  });

  it("the run's summary line (run's end, summary.json) shows them beside the totals", () => {
    const line = spendAndFailureLines(
      summary({ inputTokens: 1_500, outputTokens: 300, cachedInputTokens: 768, reasoningTokens: 128 }),
    ).find((l) => l.startsWith('LLM calls'));
    expect(line).toBe('LLM calls 3, tokens in 1500 out 300 (768 cached in, 128 reasoning out), cost $0.0012');
    const old = spendAndFailureLines(summary({ inputTokens: 1_500, outputTokens: 300 })).find((l) =>
      l.startsWith('LLM calls'),
    );
    expect(old).toBe('LLM calls 3, tokens in 1500 out 300, cost $0.0012');
  });

  it("a task's totals (show, the task page) carry them from its result", () => {
    const fields = resultFields({
      soft: 1,
      hard: 1,
      llmCalls: 2,
      usage: { inputTokens: 900, outputTokens: 200, cachedInputTokens: 512, reasoningTokens: 64 },
      costUsd: 0.001,
      wallMs: 10,
    });
    expect(fields.totals).toMatchObject({ inputTokens: 900, cachedInputTokens: 512, reasoningTokens: 64 });
    const plain = resultFields({
      soft: 1,
      hard: 1,
      llmCalls: 1,
      usage: { inputTokens: 9, outputTokens: 2 },
      costUsd: 0,
      wallMs: 1,
    });
    expect(plain.totals).not.toHaveProperty('cachedInputTokens');
  });

  it('the report reads them back from a task result (not stripped by its schema)', () => {
    const usage = { inputTokens: 900, outputTokens: 200, cachedInputTokens: 512, reasoningTokens: 64 };
    const parsed = taskResultSchema.safeParse({
      taskId: 't',
      id: 't',
      instructionType: 'Cell-Level Manipulation',
      testCaseResults: [1],
      soft: 1,
      hard: 1,
      llmCalls: 1,
      usage,
      costUsd: 0,
      stages: [],
      reasons: [null],
      wallMs: 1,
    });
    if (!parsed.success) throw new Error(parsed.error.message);
    expect(parsed.data.usage).toEqual(usage);
  });
});
