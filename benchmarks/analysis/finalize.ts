import { writeJsonAtomic } from '../../lib/runStore/files';
import { readJsonIfPresent } from '../../lib/json';
import { analysisRequestResultSchema } from './resultSchema';
import { analysisRun, type AnalysisRun } from './run';
import type { AnalysisRequestResult } from './result';

interface Group {
  passed: number;
  /** Requests that ran and were scored (skipped and failed ones are counted apart). */
  scored: number;
  successRate: number;
  steps: number;
  toolCalls: number;
  tokens: number;
  costUsd: number;
  /** Numbers stated by the answers (with a grounding record), how many the turns' tools produced, and the share; null with none. */
  numbers: number;
  groundedNumbers: number;
  groundedShare: number | null;
}

export interface AnalysisSummary {
  benchmark: 'analysis';
  pattern: string;
  model: string;
  requests: number;
  finished: number;
  passed: number;
  scored: number;
  successRate: number;
  skipped: Array<{ taskId: string; reason: string }>;
  failed: Array<{ taskId: string; reason: string }>;
  /** Totals over the run; per level and per pattern (JIT's choice for `auto`): success and means per scored request. */
  total: Group;
  byLevel: Record<string, Group>;
  byPattern: Record<string, Group>;
}

/** summary.json: success, grounded numbers, steps, tokens and cost per level and per pattern, skipped and failed requests with reasons. */
export async function finalizeAnalysisRun(runDir: string): Promise<AnalysisSummary> {
  const ctx = await analysisRun(runDir);
  const summary = await summarizeAnalysisRun(ctx);
  await writeJsonAtomic(ctx.layout.summaryPath, summary);
  return summary;
}

/** The summary of the requests finished so far, from their result files. */
export async function summarizeAnalysisRun(ctx: AnalysisRun): Promise<AnalysisSummary> {
  const tasks = ctx.tasks;
  const results: AnalysisRequestResult[] = [];
  for (const t of tasks) {
    const r = await readJsonIfPresent(ctx.layout.taskResultPath(t.id), analysisRequestResultSchema);
    if (r) results.push(r);
  }
  const scored = results.filter((r) => r.status === 'scored');
  const groupBy = (key: (r: AnalysisRequestResult) => string) =>
    Object.fromEntries([...new Set(scored.map(key))].sort().map((k) => [k, group(scored.filter((r) => key(r) === k))]));
  const total = group(scored);
  return {
    benchmark: 'analysis',
    pattern: ctx.manifest.agent,
    model: ctx.manifest.llm.model,
    requests: tasks.length,
    finished: results.length,
    passed: total.passed,
    scored: total.scored,
    successRate: total.successRate,
    skipped: results.filter((r) => r.status === 'skipped').map((r) => ({ taskId: r.taskId, reason: r.reason })),
    failed: results.filter((r) => r.status === 'failed').map((r) => ({ taskId: r.taskId, reason: r.reason })),
    total,
    byLevel: groupBy((r) => `L${r.level}`),
    byPattern: groupBy((r) => r.chosenPattern ?? r.pattern),
  };
}

function group(rs: AnalysisRequestResult[]): Group {
  const mean = (f: (r: AnalysisRequestResult) => number) =>
    rs.length ? rs.reduce((s, r) => s + f(r), 0) / rs.length : 0;
  const passed = rs.filter((r) => r.pass).length;
  const numbers = rs.reduce((n, r) => n + (r.grounding?.total ?? 0), 0);
  const groundedNumbers = rs.reduce((n, r) => n + (r.grounding?.grounded ?? 0), 0);
  return {
    passed,
    scored: rs.length,
    successRate: rs.length ? passed / rs.length : 0,
    steps: mean((r) => r.steps),
    toolCalls: mean((r) => r.toolCalls),
    tokens: mean((r) => r.usage.inputTokens + r.usage.outputTokens),
    costUsd: rs.reduce((s, r) => s + r.costUsd, 0),
    numbers,
    groundedNumbers,
    groundedShare: numbers ? groundedNumbers / numbers : null,
  };
}
