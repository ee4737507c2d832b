import { readJsonIfPresent } from '../../lib/json';
import { dsbenchQuestionResultSchema } from './resultSchema';
import path from 'node:path';
import type { DsbenchQuestion } from './dataset';

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
