import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Search attributes on every run and task workflow, so operators can filter in the Web UI. */
export const SA = {
  runId: defineSearchAttributeKey('BenchRunId', SearchAttributeType.KEYWORD),
  benchmark: defineSearchAttributeKey('Benchmark', SearchAttributeType.KEYWORD),
  agent: defineSearchAttributeKey('Agent', SearchAttributeType.KEYWORD),
  model: defineSearchAttributeKey('Model', SearchAttributeType.KEYWORD),
  taskId: defineSearchAttributeKey('TaskId', SearchAttributeType.KEYWORD),
  stage: defineSearchAttributeKey('Stage', SearchAttributeType.KEYWORD),
  status: defineSearchAttributeKey('BenchStatus', SearchAttributeType.KEYWORD),
  costUsd: defineSearchAttributeKey('CostUsd', SearchAttributeType.DOUBLE),
} as const;

/** `--search-attribute NAME=Type` flags for `temporal server start-dev`. */
export function searchAttributeFlags(): string[] {
  const typeName: Record<string, string> = {
    [SearchAttributeType.KEYWORD]: 'Keyword',
    [SearchAttributeType.DOUBLE]: 'Double',
  };
  return Object.values(SA).flatMap((key) => ['--search-attribute', `${key.name}=${typeName[key.type]}`]);
}
