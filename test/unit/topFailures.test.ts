import { describe, expect, it } from 'vitest';
import { topFailures } from '../../benchmarks/report/runSummary';
import type { TaskResult } from '../../contracts/taskResult';

const result = (taskId: string, failure?: TaskResult['failure']) => ({ taskId, failure }) as TaskResult;

describe('most common failure messages in the run summary', () => {
  it('groups messages that differ only in numbers, most frequent first, keeping one example', () => {
    const top = topFailures([
      result('1', { class: 'sandbox', message: 'task 1: sandbox lost after 30 s' }),
      result('2', { class: 'llm', message: 'LLM call failed (auth): 401 Incorrect API key' }),
      result('3', { class: 'sandbox', message: 'task 3: sandbox lost after 31 s' }),
      result('4'),
      result('5', { class: 'sandbox', message: 'task 5: sandbox lost after 29 s\n  details' }),
    ]);
    expect(top).toEqual([
      { class: 'sandbox', message: 'task 1: sandbox lost after 30 s', tasks: 3 },
      { class: 'llm', message: 'LLM call failed (auth): 401 Incorrect API key', tasks: 1 },
    ]);
  });

  it('keeps at most `limit` messages', () => {
    const many = Array.from({ length: 9 }, (_, i) =>
      result(String(i), { class: 'internal', message: `failure kind ${'abcdefghi'[i]}` }),
    );
    expect(topFailures(many, 5)).toHaveLength(5);
  });
});
