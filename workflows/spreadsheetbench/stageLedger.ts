import type { StageRecord } from '../../contracts/taskResult';
import type { TokenUsage } from '../../lib/llm/types';

/** Per-stage accounting inside a task workflow (deterministic: wall time from workflow time). */
export class StageLedger {
  readonly stages: StageRecord[] = [];
  current = 'start';

  begin(stage: string): StageRecord {
    this.current = stage;
    const record: StageRecord = {
      stage,
      llmCalls: 0,
      usage: { inputTokens: 0, outputTokens: 0 },
      costUsd: 0,
      wallMs: -Date.now(),
      outcome: 'running',
    };
    this.stages.push(record);
    return record;
  }

  end(record: StageRecord, outcome: string): void {
    record.wallMs += Date.now();
    record.outcome = outcome;
  }

  charge(record: StageRecord, usage: TokenUsage, costUsd: number, calls = 1): void {
    record.llmCalls += calls;
    record.usage = {
      inputTokens: record.usage.inputTokens + usage.inputTokens,
      outputTokens: record.usage.outputTokens + usage.outputTokens,
    };
    record.costUsd += costUsd;
  }

  totals(): { llmCalls: number; usage: TokenUsage; costUsd: number } {
    return this.stages.reduce(
      (t, s) => ({
        llmCalls: t.llmCalls + s.llmCalls,
        usage: {
          inputTokens: t.usage.inputTokens + s.usage.inputTokens,
          outputTokens: t.usage.outputTokens + s.usage.outputTokens,
        },
        costUsd: t.costUsd + s.costUsd,
      }),
      { llmCalls: 0, usage: { inputTokens: 0, outputTokens: 0 }, costUsd: 0 },
    );
  }
}
