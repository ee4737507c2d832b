/** Which tasks get a different verdict in `official` and `strict` mode (the cost of each documented quirk). */
import type { SheetTask } from '../dataset';
import { taskKey } from '../../../lib/runStore/taskRecord';
import { categorize, parseAnswerPosition, type ParsedAnswerPosition } from './answerPosition';
import type { OfficialTaskScore } from './types';

export interface ModeDifference {
  id: number | string;
  answer_position: string;
  official: number[];
  strict: number[];
}

/** Verdict differences between two scored runs of the same tasks (official vs strict). */
export function verdictDifferences(
  tasks: SheetTask[],
  official: OfficialTaskScore[],
  strict: OfficialTaskScore[],
): ModeDifference[] {
  const strictById = new Map(strict.map((r) => [taskKey(r.id), r]));
  const taskById = new Map(tasks.map((t) => [taskKey(t.id), t]));
  return official.flatMap((o) => {
    const s = strictById.get(taskKey(o.id));
    if (!s || s.test_case_results.join() === o.test_case_results.join()) return [];
    return [
      {
        id: o.id,
        answer_position: taskById.get(taskKey(o.id))?.answer_position ?? '',
        official: o.test_case_results,
        strict: s.test_case_results,
      },
    ];
  });
}

/** Tasks whose answer_position is read differently by the two modes (no workbook needed). */
export function parseDifferences(
  tasks: SheetTask[],
): { id: number | string; answer_position: string; official: string; strict: string }[] {
  const describe = (p: ParsedAnswerPosition) =>
    `${categorize(p)}: ${p.pieces.map((x) => `${x.sheet ?? '<first sheet>'}!${JSON.stringify(x.target)}`).join(' | ')}`;
  return tasks.flatMap((t) => {
    const official = describe(parseAnswerPosition(t.answer_position, 'official'));
    const strict = describe(parseAnswerPosition(t.answer_position, 'strict'));
    return official === strict ? [] : [{ id: t.id, answer_position: t.answer_position, official, strict }];
  });
}
