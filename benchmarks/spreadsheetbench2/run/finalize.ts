/**
 * After the last task of a SpreadsheetBench 2 run: the official result file of each category (evaluation.py's shape,
 * one file per category as it writes them) and summary.json: accuracy overall and per category (soft = hard =
 * accuracy), and the release's figures (accuracy, regression and modification accuracy) overall and per category.
 * A task without a result counts as a missing output, as the official tool counts it.
 */
import { readJsonIfPresent } from '../../../lib/json';
import { writeFileAtomic, writeJsonAtomic } from '../../../lib/runStore/files';
import { taskKey } from '../../../lib/runStore/taskRecord';
import { spendOf, type Figure, type RunSummary, type ScoreLine } from '../../report/runSummary';
import type { V2Task } from '../dataset';
import { v2Result, v2ResultJson, type V2Result, type V2Score } from '../scoring/scoreTask';
import { v2Run, type V2Run } from './files';
import { v2TaskResultSchema, type V2TaskResult } from './taskResult';
import { chartJudgingOf, type ChartSummary } from '../visualization/chartSummary';
import { TokenUsage } from '../../../lib/llm/usage';

type Recorded = V2TaskResult | (Omit<V2TaskResult, 'v2'> & { v2?: undefined });

interface Scored {
  task: V2Task;
  result?: Recorded;
}

/** The official score line of a task: from its result, or a missing output when it has none. */
function officialScore({ task, result }: Scored): { score: V2Score; missing: boolean } {
  const v2 = result?.v2;
  if (!v2) {
    const why = result?.failure ? `task failed (${result.failure.class}): ${result.failure.message}` : 'no result';
    return {
      score: {
        id: task.id,
        error_message: `output file not exist (${why})`,
        regression_accuracy: 0,
        modification_accuracy: 0,
        accuracy: 0,
        interaction_turns: result?.llmCalls ?? 0,
      },
      missing: true,
    };
  }
  return {
    score: {
      id: task.id,
      error_message: v2.errorMessage,
      regression_accuracy: v2.regressionAccuracy,
      modification_accuracy: v2.modificationAccuracy,
      accuracy: v2.accuracy,
      interaction_turns: v2.interactionTurns ?? result.llmCalls,
    },
    missing: v2.missingOutput,
  };
}

/** The official result over some tasks. */
function resultOver(scored: Scored[]): V2Result {
  const lines = scored.map(officialScore);
  return v2Result(
    lines.map((l) => l.score),
    lines.filter((l) => l.missing).length,
  );
}

async function readScored(run: V2Run): Promise<Scored[]> {
  const out: Scored[] = [];
  for (const task of run.tasks) {
    const result = await readJsonIfPresent(run.layout.taskResultPath(taskKey(task.id)), v2TaskResultSchema);
    out.push({ task, ...(result ? { result: result } : {}) });
  }
  return out;
}

const categoriesOf = (scored: Scored[]) => [...new Set(scored.map((s) => s.task.category))];

/** The release's figures, overall and per category, from the official results. */
export function v2Figures(overall: V2Result, byCategory: Record<string, V2Result>): Figure[] {
  const figure = (name: string, pick: (r: V2Result) => number): Figure => ({
    name,
    overall: pick(overall),
    byGroup: Object.fromEntries(Object.entries(byCategory).map(([c, r]) => [c, pick(r)])),
  });
  return [
    figure('accuracy', (r) => r.accuracy),
    figure('regression accuracy', (r) => r.regression_accuracy),
    figure('modification accuracy', (r) => r.modification_accuracy),
  ];
}

function scoreLine(results: Recorded[]): ScoreLine {
  const n = results.length;
  const soft = n ? results.reduce((s, r) => s + r.soft, 0) / n : 0;
  return { tasks: n, soft, hard: n ? results.reduce((s, r) => s + r.hard, 0) / n : 0 };
}

function summaryOf(run: V2Run, scored: Scored[], byCategory: Record<string, V2Result>, overall: V2Result): RunSummary {
  const results = scored.flatMap((s) => (s.result ? [s.result] : []));
  const failureClasses: Record<string, number> = {};
  for (const r of results) if (r.failure) failureClasses[r.failure.class] = (failureClasses[r.failure.class] ?? 0) + 1;
  const byType: Record<string, ScoreLine> = {};
  for (const c of Object.keys(byCategory)) byType[c] = scoreLine(results.filter((r) => r.instructionType === c));
  return {
    runId: run.manifest.runId,
    agent: run.manifest.agent,
    model: run.manifest.llm.model,
    tasks: run.tasks.length,
    scored: results.length,
    ...spendOf(results),
    overall: scoreLine(results),
    byType,
    failureClasses,
    figures: v2Figures(overall, byCategory),
  };
}

/** The run's summary and official results per category from what is recorded now (nothing written). */
export async function summarizeV2Run(
  runDir: string,
): Promise<{ run: V2Run; summary: RunSummary; byCategory: Record<string, V2Result> }> {
  const run = await v2Run(runDir);
  const scored = await readScored(run);
  const byCategory: Record<string, V2Result> = {};
  for (const category of categoriesOf(scored))
    byCategory[category] = resultOver(scored.filter((s) => s.task.category === category));
  const summary = summaryOf(run, scored, byCategory, resultOver(scored));
  const { charts, figures } = await chartJudgingOf(run);
  summary.figures = [...(summary.figures ?? []), ...figures];
  if (charts) addChartJudging(summary, charts);
  return { run, summary, byCategory };
}

/** The judge's calls in the run's spend (apart from the agent's in the task results), and the chart summary. */
function addChartJudging(summary: RunSummary, charts: ChartSummary): void {
  Object.assign(summary, {
    charts,
    llmCalls: summary.llmCalls + charts.judgeCalls,
    usage: TokenUsage.add(summary.usage, { ...TokenUsage.zero(), ...charts.judgeUsage }),
    costUsd: summary.costUsd + charts.judgeCostUsd,
  });
}

export async function finalizeV2Run(runDir: string): Promise<RunSummary> {
  const { run, summary, byCategory } = await summarizeV2Run(runDir);
  for (const [category, result] of Object.entries(byCategory))
    await writeFileAtomic(run.files.officialResultPath(category), v2ResultJson(result));
  await writeJsonAtomic(run.layout.summaryPath, summary);
  return summary;
}
