import { writeFileAtomic, writeJsonAtomic } from '../../lib/runStore/files';
import { readJsonIfPresent } from '../../lib/json';
import { dsbenchQuestionResultSchema } from './resultSchema';
import { dsbenchPaths } from './layout';
import { summarizeDsbenchRun, type DsbenchSummary } from './metrics';
import type { DsbenchQuestionResult } from './result';
import { dsbenchRun } from './run';

/** summary.json (accuracy, competition accuracy, by type, judge check, cost, time) and one JSON line per question. */
export async function finalizeDsbenchRun(runDir: string): Promise<DsbenchSummary> {
  const ctx = await dsbenchRun(runDir);
  const questions = ctx.tasks;
  const results: DsbenchQuestionResult[] = [];
  for (const q of questions) {
    const r = await readJsonIfPresent(ctx.layout.taskResultPath(q.id), dsbenchQuestionResultSchema);
    if (r) results.push(r);
  }
  const lines = results.map((r) =>
    JSON.stringify({
      id: r.taskId,
      competition_id: r.competitionId,
      model: ctx.manifest.llm.model,
      cost: r.costUsd,
      time: r.wallMs / 1000,
      response: r.predicted ?? null,
      answer: r.target,
      verdict: r.verdict ?? null,
    }),
  );
  await writeFileAtomic(dsbenchPaths.resultsJsonl(ctx.layout.root), lines.map((l) => `${l}\n`).join(''));
  const summary = summarizeDsbenchRun(ctx.manifest, questions, results);
  await writeJsonAtomic(ctx.layout.summaryPath, summary);
  return summary;
}
