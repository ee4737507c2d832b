import type { StageRecord } from '../../contracts/taskResult';
import { Spend, TokenUsage } from '../../lib/llm/usage';

/** Per-stage accounting inside a task workflow (deterministic: wall time from workflow time). */
export class StageLedger {
  readonly stages: StageRecord[] = [];
  current = 'start';

  begin(stage: string): StageRecord {
    this.current = stage;
    const record: StageRecord = {
      stage,
      llmCalls: 0,
      usage: TokenUsage.zero(),
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
    Object.assign(record, Spend.add(record, { usage, costUsd, llmCalls: calls }));
  }

  totals(): Spend {
    return this.stages.reduce<Spend>((t, s) => Spend.add(t, s), Spend.zero());
  }
}
