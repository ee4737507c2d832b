import { readJsonOr } from '../../lib/runStore/files';
import path from 'node:path';
import type { DsbenchQuestion } from './dataset';
import type { DsbenchQuestionResult } from './result';

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
    const r = await readJsonOr<DsbenchQuestionResult | null>(path.join(runDir, 'results', `${q.id}.json`), null);
    if (!r || r.predicted === undefined) continue;
    if (all || r.verdict === undefined || r.verdict === 'unparseable') ids.push(q.id);
  }
  return ids;
}
