import type { RunComparison, TaskDiff } from './compare';
import type { LoadedTask } from './load';
import {
  count,
  failureText,
  pct,
  reasonsText,
  score,
  signedCount,
  signedPct,
  signedUsd,
  testCaseMarks,
  usd,
} from '../../report/format';

/** Table contents as plain text, shared by the Markdown and HTML renderers (which only escape and wrap). */

export const TASK_COLUMNS = [
  'Id',
  'Type',
  'Test cases',
  'Soft',
  'Hard',
  'Calls',
  'Tokens',
  'Cost',
  'Failure',
  'Reasons',
];
/** Columns (after the id) that hold numbers. */
export const NUMERIC_TASK_COLUMNS = new Set([3, 4, 5, 6, 7]);

/** The cells after the id column. */
export function taskCells(t: LoadedTask): string[] {
  const r = t.result;
  if (!r) return [t.task.instruction_type, 'pending', '', '', '', '', '', '', ''];
  return [
    r.instructionType,
    testCaseMarks(r.testCaseResults),
    score(r.soft),
    score(r.hard),
    String(r.llmCalls),
    count(r.usage.inputTokens + r.usage.outputTokens),
    usd(r.costUsd),
    failureText(r),
    reasonsText(r),
  ];
}

export function deltaHeader(c: RunComparison): string[] {
  return ['Metric', c.baselineRunId, c.currentRunId, 'Delta'];
}

export function deltaRows(c: RunComparison): string[][] {
  const tokens = (s: RunComparison['current']) => s.inputTokens + s.outputTokens;
  return [
    ['Soft', pct(c.baseline.overall.soft), pct(c.current.overall.soft), signedPct(c.delta.soft)],
    ['Hard', pct(c.baseline.overall.hard), pct(c.current.overall.hard), signedPct(c.delta.hard)],
    ['Cost', usd(c.baseline.costUsd), usd(c.current.costUsd), signedUsd(c.delta.costUsd)],
    ['Tokens', count(tokens(c.baseline)), count(tokens(c.current)), signedCount(c.delta.tokens)],
    ['LLM calls', count(c.baseline.llmCalls), count(c.current.llmCalls), signedCount(c.delta.llmCalls)],
  ];
}

export const DIFF_COLUMNS = ['Id', 'Change', 'Baseline soft / hard', 'This run soft / hard'];

export function diffRow(t: TaskDiff): string[] {
  const fmt = (s?: { soft: number; hard: number }) => (s ? `${score(s.soft)} / ${score(s.hard)}` : '—');
  return [t.key, t.change, fmt(t.baseline), fmt(t.current)];
}

export function changedTasks(c: RunComparison): TaskDiff[] {
  return c.tasks.filter((t) => t.change !== 'unchanged');
}

export function changeCounts(c: RunComparison): { change: string; count: number }[] {
  return Object.entries(c.counts)
    .filter(([, n]) => n > 0)
    .map(([change, n]) => ({ change, count: n }));
}
