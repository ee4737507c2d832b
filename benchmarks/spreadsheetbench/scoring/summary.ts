/** Means over tasks of soft and hard restriction, overall and per instruction type (how papers report them). */
import type { OfficialTaskScore } from './types';

export interface ScoreGroup {
  tasks: number;
  soft: number;
  hard: number;
}
export interface ScoreSummary extends ScoreGroup {
  byType: Record<string, ScoreGroup>;
}

function group(results: OfficialTaskScore[]): ScoreGroup {
  const n = results.length;
  const mean = (f: (r: OfficialTaskScore) => number) => (n === 0 ? 0 : results.reduce((s, r) => s + f(r), 0) / n);
  return { tasks: n, soft: mean((r) => r.soft_restriction), hard: mean((r) => r.hard_restriction) };
}

export function summarize(results: OfficialTaskScore[]): ScoreSummary {
  const types = [...new Set(results.map((r) => r.instruction_type))].sort();
  const byType = Object.fromEntries(types.map((t) => [t, group(results.filter((r) => r.instruction_type === t))]));
  return { ...group(results), byType };
}
