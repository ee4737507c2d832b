/**
 * After a v2 run's last task: the official result files (evaluation.py's shape, one per category as the official tool
 * writes them, under eval/<category>.json, and eval/all.json over every task) from the per-task score lines, and
 * summary.json (accuracy overall and per category as soft = hard, spend, failures).
 */
import path from 'node:path';
import { readJsonIfPresent } from '../../lib/json';
import { writeFileAtomic, writeJsonAtomic } from '../../lib/runStore/files';
import { TokenUsage } from '../../lib/llm/usage';
import type { RunSummary, ScoreLine } from '../report/runSummary';
import { v2Result, v2ResultJson, type V2Result, type V2Score } from './scoring/scoreTask';
import { v2Run } from './run';
import { v2TaskResultSchema, type V2TaskResult } from './result';
import { taskKey } from '../../lib/runStore/taskRecord';

export interface V2RunSummary extends RunSummary {
  benchmark: 'spreadsheetbench2';
  spreadsheetbench2: { all: Omit<V2Result, 'scores'>; categories: Record<string, Omit<V2Result, 'scores'>> };
}

export const v2EvalPath = (runDir: string, name: string) => path.join(runDir, 'eval', `${name}.json`);

/** The official result over some tasks: tasks without a result (not run, failed before scoring) count as missing. */
function officialResult(results: (V2TaskResult | undefined)[], ids: (string | number)[]): V2Result {
  const scores: V2Score[] = results.map(
    (r, i) =>
      r?.score ?? {
        id: ids[i],
        error_message: 'Output file does not exist (no result recorded)',
        regression_accuracy: 0,
        modification_accuracy: 0,
        accuracy: 0,
        interaction_turns: 0,
      },
  );
  return v2Result(scores, results.filter((r) => !r || r.missingOutput).length);
}

export async function finalizeV2Run(runDir: string): Promise<V2RunSummary> {
  const ctx = await v2Run(runDir);
  const results = await Promise.all(
    ctx.tasks.map((t) => readJsonIfPresent(ctx.layout.taskResultPath(taskKey(t.id)), v2TaskResultSchema)),
  );
  const all = officialResult(
    results,
    ctx.tasks.map((t) => t.id),
  );
  await writeFileAtomic(v2EvalPath(runDir, 'all'), v2ResultJson(all));
  const categories: V2RunSummary['spreadsheetbench2']['categories'] = {};
  const byType: Record<string, ScoreLine> = {};
  for (const category of [...new Set(ctx.tasks.map((t) => t.category))]) {
    const idx = ctx.tasks.flatMap((t, i) => (t.category === category ? [i] : []));
    const result = officialResult(
      idx.map((i) => results[i]),
      idx.map((i) => ctx.tasks[i].id),
    );
    await writeFileAtomic(v2EvalPath(runDir, category), v2ResultJson(result));
    const { scores, ...totals } = result;
    categories[category] = totals;
    const acc = scores.reduce((s, x) => s + x.accuracy, 0) / Math.max(1, scores.length);
    byType[category] = { tasks: scores.length, soft: acc, hard: acc };
  }
  const recorded = results.filter((r): r is V2TaskResult => r !== undefined);
  const failureClasses: Record<string, number> = {};
  for (const r of recorded) if (r.failure) failureClasses[r.failure.class] = (failureClasses[r.failure.class] ?? 0) + 1;
  const accuracy = all.scores.reduce((s, x) => s + x.accuracy, 0) / Math.max(1, all.scores.length);
  const { scores: _scores, ...allTotals } = all;
  const summary: V2RunSummary = {
    benchmark: 'spreadsheetbench2',
    runId: ctx.manifest.runId,
    agent: ctx.manifest.agent,
    model: ctx.manifest.llm.model,
    tasks: ctx.tasks.length,
    scored: recorded.length,
    failed: recorded.filter((r) => r.failure).length,
    overall: { tasks: ctx.tasks.length, soft: accuracy, hard: accuracy },
    byType,
    llmCalls: recorded.reduce((s, r) => s + r.modelCalls, 0),
    usage: recorded.reduce((s, r) => TokenUsage.add(s, r.usage as TokenUsage), TokenUsage.zero()),
    costUsd: recorded.reduce((s, r) => s + r.costUsd, 0),
    failureClasses,
    spreadsheetbench2: { all: allTotals, categories },
  };
  await writeJsonAtomic(ctx.layout.summaryPath, summary);
  return summary;
}
