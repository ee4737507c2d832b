import { readJsonIfPresent } from '../../lib/json';
import { dsbenchJudgmentSchema, dsbenchQuestionResultSchema } from './resultSchema';
import path from 'node:path';
import type { DsbenchQuestion } from './dataset';
import type { RunManifest } from '../../lib/runStore/manifest';
import { RunLayout } from '../../lib/runStore/runLayout';
import { dsbenchPaths } from './layout';
import { dsbenchSettingsOf } from './settings';

/**
 * Questions to judge again: those with a recorded answer whose judgment is unparseable or missing (e.g. the judge call
 * failed), or, with `all`, every answered question (e.g. with another judge model).
 */
export async function questionsToRejudge(
  runDir: string,
  questions: DsbenchQuestion[],
  all: boolean,
): Promise<string[]> {
  const ids: string[] = [];
  for (const q of questions) {
    const r = await readJsonIfPresent(path.join(runDir, 'results', `${q.id}.json`), dsbenchQuestionResultSchema);
    if (!r || r.predicted === undefined) continue;
    if (all || r.verdict === undefined || r.verdict === 'unparseable') ids.push(q.id);
  }
  return ids;
}

/** A DSBench judge as a rejudge's record names it: its model (the template is the run's, run.json). */
export interface DsbenchJudge {
  model: string;
}

/** What a rejudge judges with: `--judge-model`, else the judge model the run was created with (as the judge activity). */
export const dsbenchRequestedJudge = (request: { manifest: RunManifest; judgeModel?: string }): DsbenchJudge => ({
  model: request.judgeModel ?? dsbenchSettingsOf(request.manifest).judgeModel,
});

/** The judge model the question's judgment records; undefined where it has none (never judged). */
export async function dsbenchJudgedWith(runDir: string, taskId: string): Promise<DsbenchJudge | undefined> {
  const judgment = await readJsonIfPresent(
    dsbenchPaths.judgment(new RunLayout(runDir).taskDir(taskId)),
    dsbenchJudgmentSchema,
  );
  return judgment && { model: judgment.judgeModel };
}
